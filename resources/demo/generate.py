#!/usr/bin/env python3
"""Write the bundled demo project of hieradjudicate.

    python resources/demo/generate.py            # rewrite the files next to this script
    python resources/demo/generate.py --out DIR  # write them into DIR instead

Standard library only.  Every random choice is drawn from one ``random.Random``
with a fixed seed, in a fixed order, so that every run writes byte-identical
files (UTF-8, LF line ends).  Do not edit the output files by hand: change this
script and run it again.

What is written:

* ``inventory.txt`` -- eight lexelts in the indented outline format, main senses
  with sub-senses (and a few sub-sub-senses); the glosses are original.
* ``contexts.tsv`` -- one invented sentence per instance, ``<head>`` marked,
  written to fit the sense the generator intended for that instance.
* ``annotator_ann.key``, ``annotator_ben.key``, ``annotator_cho.key`` -- three
  simulated human annotators (Senseval key format) with their own habits.
* ``system_lesk.ans``, ``system_neural.ans`` -- two simulated systems with
  weighted answers (Senseval answer format).
* ``README.md`` -- what the demo holds.

The intended sense of each instance is not written anywhere: finding it is
what the lexicographer does with the tool.  ``--truth`` prints it to stdout
(``lexelt instance sense``) for anyone who wants to check an adjudication.
"""

from __future__ import annotations

import argparse
import random
import re
import sys
from pathlib import Path

SEED = 20_240_517

# ---------------------------------------------------------------------------
# Word lists shared by the context templates.  ``{Name}``, ``{town}`` and
# ``{past}`` pick from these; ``[a|b|c]`` picks one of the inline alternatives.
# ---------------------------------------------------------------------------

NAMES = [
    "Maria", "Tomasz", "Aisha", "Declan", "Priya", "Olu", "Henrik", "Mei", "Rosa",
    "Samir", "Grace", "Ivan", "Lucía", "Kwame", "Ingrid", "Marcus", "Noor", "Eilidh",
    "Pablo", "Hannah", "Femi", "Zoë", "Arjun", "Bridget", "Yusuf", "Agnes",
]
TOWNS = [
    "Dundee", "Bristol", "Galway", "Utrecht", "Porto", "Halifax", "Ballarat",
    "Duluth", "Kraków", "Nantes", "Tromsø", "Mysore", "Wexford", "Hobart",
]
PAST = [
    "last week", "yesterday", "on Monday", "in March", "two years ago",
    "this morning", "at the weekend", "last autumn", "in the spring",
]

# ---------------------------------------------------------------------------
# The lexelts: (name, number of instances, outline, templates per leaf sense).
# Glosses and sentences are written for this demo.
# ---------------------------------------------------------------------------

LEXELTS: list[tuple[str, int, str, dict[str, list[str]]]] = [
    ("bank.n", 52, """
1: an organization that deals in money
  1.1: a business that keeps deposits and makes loans
  1.2: the building or office where such a business serves customers
2: ground rising beside or under water
  2.1: the sloping edge of a river, stream or canal
  2.2: a ridge of sand or gravel under shallow water
3: a store kept for later use
  3.1: a supply of blood, tissue or organs kept for medical use
  3.2: a collection of material or information held for future use
4: a row or tier of similar objects set close together
""", {
        "1.1": [
            "{Name} asked the <head>bank</head> for a [loan|mortgage|larger overdraft] to [buy a van|expand the bakery|fix the roof].",
            "Several <head>banks</head> raised their lending rates {past}.",
            "The [small|regional|old family] <head>bank</head> was taken over by a [rival|foreign group|building society] {past}.",
            "[Investors|Regulators|Analysts] worried that the <head>bank</head> held too little capital.",
        ],
        "1.2": [
            "{Name} waited outside the <head>bank</head> until the doors opened at nine.",
            "The old <head>bank</head> on [the high street|Market Square|Mill Lane] is now a [café|bookshop|restaurant].",
            "There is a cash machine in the wall of the <head>bank</head> [opposite the station|next to the post office|by the bus stop].",
            "[Thieves|Two men|A gang] broke into the <head>bank</head> through the [roof|cellar|back window] {past}.",
        ],
        "2.1": [
            "We sat on the <head>bank</head> of the [river|stream|canal] and ate our [sandwiches|lunch|apples].",
            "The [flood|heavy rain|spring tide] washed away part of the <head>bank</head> {past}.",
            "[Reeds|Willows|Nettles] grew thickly along the far <head>bank</head> of the [river|stream].",
            "{Name} scrambled up the muddy <head>bank</head> with the [dog|fishing rod|canoe].",
        ],
        "2.2": [
            "The trawler [ran aground on|was wrecked on|drifted onto] a sand <head>bank</head> [off the coast|near the harbour mouth|in thick fog].",
            "Cod feed on the shallow <head>banks</head> [east of the island|far out to sea|off the headland].",
            "At low tide a [gravel|shingle|sand] <head>bank</head> appears in the middle of the [estuary|bay].",
        ],
        "3.1": [
            "The blood <head>bank</head> appealed for [donors|volunteers] after the [accident|storm|holiday weekend].",
            "{Name} gave a pint to the hospital blood <head>bank</head> {past}.",
            "Samples are frozen and kept in a [tissue|cord blood] <head>bank</head> for future treatment.",
        ],
        "3.2": [
            "The teachers built up a <head>bank</head> of exam questions [over several years|from past papers].",
            "The project keeps a <head>bank</head> of [recorded interviews|old photographs|place names] for researchers.",
            "A seed <head>bank</head> in [the Arctic|{town}] stores [rare|old|local] varieties of [wheat|barley|beans].",
        ],
        "4": [
            "A <head>bank</head> of [switches|monitors|floodlights] lined the [wall|control room|hall].",
            "The engineer worked along a <head>bank</head> of [dials|switches] until the [alarm|fan] stopped.",
            "The organ in {town} has three <head>banks</head> of keys.",
        ],
    }),
    ("interest.n", 50, """
1: money paid for the use of money
  1.1: the charge made on a loan, usually a yearly percentage
  1.2: money earned on savings or invested capital
2: a share or stake in something
  2.1: a legal or financial share in a business or property
  2.2: a group of people with a common stake in an industry or cause
3: advantage or benefit
  3.1: what is good for a person or group
  3.2: a private stake that could sway one's judgement
4: the wish to know or learn about something
  4.1: curiosity or attention given to something
  4.2: the power of a thing to hold attention
  4.3: an activity a person enjoys; a hobby
""", {
        "1.1": [
            "The loan carries <head>interest</head> at [six|seven|nine] per cent a year.",
            "{Name} paid more in <head>interest</head> than the [car|sofa|kitchen] had cost.",
            "The bank waived the <head>interest</head> on the overdraft for [three months|the first year].",
            "Credit cards charge [high|punishing|steep] <head>interest</head> on unpaid balances.",
        ],
        "1.2": [
            "The savings account earned very little <head>interest</head> {past}.",
            "{Name} lived on the <head>interest</head> from a small inheritance.",
            "Bond holders receive <head>interest</head> [twice a year|every quarter|when the bond matures].",
        ],
        "2.1": [
            "The family sold its <head>interest</head> in the [brewery|hotel|shipyard] {past}.",
            "{Name} holds a controlling <head>interest</head> in the [company|newspaper|football club].",
            "A [Dutch|Canadian|local] investor bought a forty per cent <head>interest</head> in the [mine|vineyard|airline].",
        ],
        "2.2": [
            "The [farming|oil|shipping] <head>interests</head> lobbied hard against the new [tax|rules|bill].",
            "The bill was watered down under pressure from [business|landed|foreign] <head>interests</head>.",
            "Mining <head>interests</head> dominated politics in {town} for decades.",
        ],
        "3.1": [
            "The judge said the [closure|merger|sale] was not in the public <head>interest</head>.",
            "It is in your own <head>interest</head> to [read the contract|keep the receipts|get a second opinion].",
            "The union claimed to act in the <head>interest</head> of its [members|nurses|drivers].",
            "{Name} always puts the [children's|patients'|club's] <head>interests</head> first.",
        ],
        "3.2": [
            "The councillor declared an <head>interest</head> because her brother owned the [land|site|shop].",
            "Board members must disclose any <head>interest</head> before a vote on [contracts|pay|the merger].",
            "{Name} resigned over a conflict of <head>interest</head> {past}.",
        ],
        "4.1": [
            "{Name} listened with great <head>interest</head> to the [story|lecture|debate].",
            "The children showed little <head>interest</head> in the [museum|lesson|garden].",
            "Public <head>interest</head> in the case grew after the [trial|interview|documentary].",
        ],
        "4.2": [
            "The [chapel|old mill|harbour] is of little <head>interest</head> to [casual visitors|most tourists].",
            "The letters are of great [historical|local|scientific] <head>interest</head>.",
            "Nothing of <head>interest</head> happened at the [meeting|auction|hearing] {past}.",
        ],
        "4.3": [
            "{Name}'s main <head>interests</head> are [birdwatching|chess|rowing] and [cooking|jazz|gardening].",
            "Photography became a lifelong <head>interest</head> for {Name}.",
            "List your hobbies and <head>interests</head> at the end of the form.",
        ],
    }),
    ("run.v", 54, """
1: move swiftly on foot
  1.1: go faster than a walk
  1.2: take part in a race or cover a distance by running
  1.3: flee; make an escape
2: operate or function
  2.1: make a machine, vehicle or program work
    2.1.1: start or carry out a computer program or test
    2.1.2: keep an engine or vehicle going
  2.2: of a machine or service: be working
3: manage or be in charge of
  3.1: direct a business or organization
  3.2: organize and hold an event or course
4: stand as a candidate in an election
""", {
        "1.1": [
            "{Name} <head>ran</head> [for the bus|down the stairs|across the car park] {past}.",
            "The dog <head>runs</head> to the gate whenever the postman comes.",
            "We had to <head>run</head> to catch the last [train|ferry|tram].",
            "[Two boys|A small child|The goalkeeper] came <head>running</head> [out of the house|across the field|towards us].",
        ],
        "1.2": [
            "{Name} <head>ran</head> the [{town}|city|spring] marathon in just under four hours.",
            "She hopes to <head>run</head> in the [800 metres|relay|cross-country] at the championships.",
            "He has <head>run</head> [five|ten|twelve] kilometres every morning since [January|the spring].",
        ],
        "1.3": [
            "The burglars dropped the bag and <head>ran</head>.",
            "When the [shooting|fire alarm|shouting] started, everyone <head>ran</head> for the exits.",
            "{Name} <head>ran</head> away from home at sixteen.",
        ],
        "2.1.1": [
            "{Name} <head>ran</head> the [script|test suite|simulation] again and got the same error.",
            "Can you <head>run</head> a virus scan on this laptop before the meeting?",
            "The lab <head>runs</head> each [analysis|model|calibration] three times to be sure.",
        ],
        "2.1.2": [
            "Don't <head>run</head> the engine in a closed garage.",
            "{Name} <head>runs</head> the old tractor on [used cooking oil|red diesel|biofuel].",
            "They <head>ran</head> the generator all night during the power cut.",
        ],
        "2.2": [
            "The [fridge|boiler|printer] has been <head>running</head> [nonstop|noisily|since dawn].",
            "[Trains|Buses|Ferries] are <head>running</head> [on time|late|every ten minutes] again.",
            "The software <head>runs</head> on [older laptops|most phones|any Linux machine].",
        ],
        "3.1": [
            "{Name} <head>runs</head> a [small bakery|family hotel|bicycle shop] in {town}.",
            "Her grandmother <head>ran</head> the farm for forty years.",
            "The [charity|food bank|youth club] is <head>run</head> entirely by volunteers.",
        ],
        "3.2": [
            "{Name} <head>runs</head> a [pottery|first-aid|Spanish] course on [Tuesday evenings|Saturday mornings].",
            "The library <head>ran</head> a series of [talks|workshops|readings] {past}.",
            "Who is <head>running</head> the [quiz|raffle|jumble sale] this year?",
        ],
        "4": [
            "{Name} is <head>running</head> for mayor of {town}.",
            "She decided not to <head>run</head> for [parliament|re-election|the senate] {past}.",
            "Three candidates <head>ran</head> against the sitting [governor|councillor|mayor].",
        ],
    }),
    ("bright.a", 46, """
1: giving out or reflecting much light
  1.1: shining strongly; full of light
  1.2: of a colour: vivid and strong
2: quick-witted; clever
  2.1: of a person: quick to learn and understand
  2.2: of an idea or plan: clever and original
3: full of cheer or promise
  3.1: lively and cheerful in manner
  3.2: likely to turn out well; hopeful
""", {
        "1.1": [
            "The sun was so <head>bright</head> that we had to [squint|shade our eyes|look away].",
            "A <head>bright</head> [light|lamp|torch] shone in the [window|hallway|distance].",
            "The [kitchen|studio|front room] is <head>bright</head> and airy in the [morning|afternoon].",
            "The [moon|planet|star] looked unusually <head>bright</head> last night.",
        ],
        "1.2": [
            "{Name} painted the door a <head>bright</head> [yellow|red|turquoise].",
            "The market stalls were piled with <head>bright</head> [scarves|oranges|rugs].",
            "Children like <head>bright</head> colours on [book covers|toys|walls].",
        ],
        "2.1": [
            "{Name} was a <head>bright</head> student who finished the course a year early.",
            "The teacher said the [boy|girl] is very <head>bright</head> but easily bored.",
            "She was one of the <head>brightest</head> [engineers|chemists|lawyers] of her generation.",
        ],
        "2.2": [
            "Whose <head>bright</head> idea was it to [paint the floor first|lock the keys in the car|book the late ferry]?",
            "{Name} came up with a <head>bright</head> [plan|suggestion|solution] to cut the [costs|queue|noise].",
        ],
        "3.1": [
            "{Name} gave us a <head>bright</head> smile and waved.",
            "Despite the [bad news|long journey|rain], everyone was <head>bright</head> and cheerful at breakfast.",
            "Her voice sounded <head>bright</head> and [eager|happy|relaxed] on the phone.",
        ],
        "3.2": [
            "The [company|young striker|town] has a <head>bright</head> future ahead.",
            "Prospects for the [harvest|economy|new hospital] look <head>brighter</head> than last year.",
            "After a poor start, the season is looking <head>bright</head> for {town}.",
        ],
    }),
    ("line.n", 50, """
1: a long narrow mark
  1.1: a thin mark drawn or printed on a surface
  1.2: a mark or limit that divides one area from another
2: a row of people or things
  2.1: people or vehicles waiting one behind another
  2.2: a unit of written or spoken text
    2.2.1: a row of words across a page
    2.2.2: the words an actor speaks in a play or film
3: a cord, wire or connection
  3.1: a length of rope, cord or string
  3.2: a telephone or power connection
4: a kind of work or goods
  4.1: a range of products of one kind
  4.2: a person's trade or field of work
""", {
        "1.1": [
            "{Name} drew a straight <head>line</head> with a [ruler|pencil|marker].",
            "Sign your name on the dotted <head>line</head>.",
            "The map shows the railway as a thin black <head>line</head>.",
        ],
        "1.2": [
            "[The runner|The leading cyclist|{Name}] [collapsed|stumbled|fell] just after crossing the finish <head>line</head>.",
            "The [farm|pub|old quarry] lies right on the [county|state|parish] <head>line</head>.",
            "The ball had clearly crossed the <head>line</head> before the [keeper|defender] reached it.",
        ],
        "2.1": [
            "We stood in <head>line</head> for an hour to [get tickets|see the exhibition|have our passports checked].",
            "A long <head>line</head> of [cars|lorries|taxis] waited at the border.",
            "{Name} joined the <head>line</head> at the [checkout|post office|canteen].",
        ],
        "2.2.1": [
            "The first <head>line</head> of the [letter|recipe|will] was smudged.",
            "Leave a blank <head>line</head> between paragraphs.",
            "{Name} read the poem [aloud|slowly|twice], one <head>line</head> at a time.",
        ],
        "2.2.2": [
            "The actor forgot his <head>lines</head> in the second act.",
            "{Name} has only two <head>lines</head> in the whole [play|film|episode].",
            "They rehearsed their <head>lines</head> in the car on the way to the theatre.",
        ],
        "3.1": [
            "{Name} hung the washing on the <head>line</head> [before breakfast|in the sun|after lunch].",
            "The fishing <head>line</head> snapped just as the [pike|trout|salmon] came near the boat.",
            "Throw me a <head>line</head> and I'll tie the boat up.",
        ],
        "3.2": [
            "The <head>line</head> went dead in the middle of our call.",
            "Storms brought down power <head>lines</head> across {town} {past}.",
            "Please hold the <head>line</head> while I connect you.",
        ],
        "4.1": [
            "The [shop|brand|company] is launching a new <head>line</head> of [running shoes|garden furniture|vegan cheeses].",
            "That <head>line</head> of [kettles|prams|jackets] was withdrawn after [complaints|a recall|poor sales].",
        ],
        "4.2": [
            "What <head>line</head> of work is your [father|sister|neighbour] in?",
            "{Name} had been in the insurance <head>line</head> for twenty years.",
        ],
    }),
    ("play.v", 52, """
1: take part in a game or amusement
  1.1: take part in a sport or game
  1.2: compete against an opponent
  1.3: of children or animals: amuse oneself
2: make music or sound
  2.1: perform on a musical instrument
    2.1.1: be able to perform on an instrument
    2.1.2: perform a particular piece
  2.2: make a recording or device give out sound
3: act or behave
  3.1: take a part in a drama or film
  3.2: behave as though one were something
""", {
        "1.1": [
            "{Name} <head>plays</head> [football|hockey|netball] every Saturday.",
            "We <head>played</head> [cards|chess|dominoes] until midnight.",
            "Do you still <head>play</head> [tennis|golf|squash] with your brother?",
        ],
        "1.2": [
            "{town} <head>play</head> [the league leaders|their old rivals] on Sunday.",
            "{Name} <head>played</head> the champion in the first round and lost in straight sets.",
            "We <head>play</head> the visiting team [next week|at home|after the break].",
        ],
        "1.3": [
            "The children <head>played</head> in the [garden|street|woods] until it got dark.",
            "[Kittens|Puppies] love to <head>play</head> with a [ball of wool|cardboard box|piece of string].",
            "[Two toddlers|The twins|A group of kids] were <head>playing</head> happily in the sandpit.",
        ],
        "2.1.1": [
            "{Name} <head>plays</head> the [cello|trumpet|accordion] in a local orchestra.",
            "Her son has learned to <head>play</head> the [piano|violin|guitar] by ear.",
            "Can anyone here <head>play</head> the [organ|drums|bagpipes]?",
        ],
        "2.1.2": [
            "The pianist <head>played</head> a [Chopin nocturne|short sonata|waltz] as an encore.",
            "The band <head>played</head> [our song|the anthem|a slow number] at the end of the night.",
            "{Name} <head>played</head> a [lullaby|reel|folk tune] on the fiddle.",
        ],
        "2.2": [
            "The radio was <head>playing</head> [old jazz|the news|pop songs] in the kitchen.",
            "{Name} <head>played</head> the [recording|voicemail|tape] back twice.",
            "The shop <head>plays</head> the same [carols|playlist|jingle] all day.",
        ],
        "3.1": [
            "{Name} <head>played</head> [Hamlet|Lady Macbeth|the detective] in the [school|summer|touring] production.",
            "Who is going to <head>play</head> the villain in the film?",
        ],
        "3.2": [
            "The fox <head>played</head> dead until the dogs had gone.",
            "Stop <head>playing</head> the fool and help us [carry this|tidy up|find the keys].",
            "{Name} <head>played</head> innocent when asked about the [broken window|missing cake|dent in the car].",
        ],
    }),
    ("charge.n", 48, """
1: a price asked for something
  1.1: a fee made for a service
  1.2: an amount entered as owed on an account
2: an accusation
  2.1: a formal accusation of a crime
  2.2: a claim that someone has done wrong
3: care or responsibility
  3.1: the duty of looking after or controlling something
  3.2: a person entrusted to someone's care
4: a quantity of electricity
  4.1: the electricity carried by a body or particle
  4.2: the energy stored in a battery
""", {
        "1.1": [
            "There is a small <head>charge</head> for [delivery|parking|using the pool].",
            "The museum lets children in free of <head>charge</head>.",
            "{Name} complained about the [booking|service|call-out] <head>charge</head>.",
        ],
        "1.2": [
            "{Name} found an unknown <head>charge</head> on the credit card statement.",
            "The hotel added a <head>charge</head> for the minibar to our bill.",
            "Disputed <head>charges</head> must be reported to the card issuer within sixty days.",
        ],
        "2.1": [
            "{Name} was released without <head>charge</head> after questioning.",
            "He denies the <head>charge</head> of [theft|fraud|dangerous driving].",
            "Prosecutors dropped all <head>charges</head> against the [driver|director|two men] {past}.",
        ],
        "2.2": [
            "The minister rejected <head>charges</head> of [hypocrisy|incompetence|favouritism] [in parliament|on the radio|{past}].",
            "Critics level the same <head>charge</head> of [vanity|cynicism] at every new [government|film|reform].",
        ],
        "3.1": [
            "Who is in <head>charge</head> of the [kitchen|night shift|keys] tonight?",
            "{Name} took <head>charge</head> of the project after the manager left.",
            "The young officer was given <head>charge</head> of a small [platoon|patrol boat|outpost].",
        ],
        "3.2": [
            "The [nanny|childminder|au pair] took her young <head>charges</head> to the [park|library|swimming pool].",
            "The teacher counted her <head>charges</head> before they boarded the [coach|train|ferry].",
        ],
        "4.1": [
            "[An electron|A chloride ion] carries a negative <head>charge</head>.",
            "Rubbing the balloon [on a jumper|with a cloth|against your hair] builds up a static <head>charge</head>.",
            "In the demonstration, like <head>charges</head> repelled and the [foil leaves|pith balls|straws] sprang apart.",
        ],
        "4.2": [
            "My phone is down to ten per cent <head>charge</head>.",
            "The old battery no longer holds its <head>charge</head> [overnight|in cold weather].",
            "{Name} left the [drill|scooter|laptop] on <head>charge</head> overnight.",
        ],
    }),
    ("hard.a", 48, """
1: firm and solid
  1.1: not easily pressed, cut or bent
  1.2: of water: rich in dissolved minerals
2: difficult
  2.1: needing much effort to do or understand
  2.2: full of hardship; hard to bear
3: done with effort or force
  3.1: working with great energy and care
  3.2: strong or forceful
4: stern and unsympathetic
""", {
        "1.1": [
            "The ground was too <head>hard</head> to [dig|plant the bulbs|pitch the tent].",
            "{Name} slept badly on the <head>hard</head> [mattress|bench|floor].",
            "Bake the biscuits until they are golden and <head>hard</head>.",
        ],
        "1.2": [
            "<head>Hard</head> water leaves white scale inside the [kettle|shower head|pipes].",
            "The water in {town} is very <head>hard</head> because it comes from chalk.",
        ],
        "2.1": [
            "The [exam|crossword|last question] was much <head>harder</head> than it was last year.",
            "It is <head>hard</head> to [say|know|explain] what went wrong at the [meeting|match].",
            "{Name} found the [maths|German|statistics] course surprisingly <head>hard</head>.",
        ],
        "2.2": [
            "Those were <head>hard</head> times for [farmers|the miners|families in {town}].",
            "{Name} had a <head>hard</head> [childhood|winter|year] after the [mill|factory|mine] closed.",
            "Losing the [dog|house|match] was <head>hard</head> on the whole family.",
        ],
        "3.1": [
            "{Name} is a <head>hard</head> worker and never misses a deadline.",
            "After years of <head>hard</head> [work|study|training], the team finally won.",
        ],
        "3.2": [
            "The striker gave the ball a <head>hard</head> kick into the top corner.",
            "{Name} got a <head>hard</head> knock on the head from a falling branch.",
            "Give the lid a <head>hard</head> [twist|tap|shove] and it will come loose.",
        ],
        "4": [
            "The new manager was a <head>hard</head> man who rarely praised anyone.",
            "{Name} said some <head>hard</head> things to [the referee|the council|an old friend] {past}.",
            "Don't be too <head>hard</head> on [the new trainee|yourself|the children].",
        ],
    }),
]

# Confusions across main senses that annotators and systems make more often
# than chance (otherwise an unsure reader hesitates between siblings).
CROSS = {
    ("bank.n", "4"): "3.2",
    ("bank.n", "3.2"): "1.1",
    ("interest.n", "1.2"): "2.1",
    ("interest.n", "2.1"): "1.2",
    ("interest.n", "3.2"): "2.1",
    ("interest.n", "4.2"): "3.1",
    ("run.v", "1.2"): "4",
    ("run.v", "4"): "1.2",
    ("run.v", "3.2"): "2.1.1",
    ("bright.a", "3.1"): "1.1",
    ("bright.a", "3.2"): "3.1",
    ("line.n", "2.2.1"): "1.1",
    ("line.n", "4.2"): "2.1",
    ("play.v", "2.1.2"): "3.1",
    ("play.v", "1.3"): "1.1",
    ("charge.n", "1.2"): "1.1",
    ("charge.n", "2.2"): "2.1",
    ("charge.n", "3.1"): "2.2",
    ("hard.a", "2.2"): "4",
    ("hard.a", "3.2"): "1.1",
    ("hard.a", "4"): "2.2",
}

# How often an instance is easy, medium or hard to read, and the chance that
# an annotator is unsure at each level.
DIFFICULTY = [("easy", 0.66), ("medium", 0.24), ("hard", 0.10)]
UNSURE = {"easy": 0.07, "medium": 0.42, "hard": 0.80}

# What each annotator does when unsure (weights of the possible moves).
#   exact: the intended leaf anyway   parent: the sense above it
#   alt: the sense it is confused with   multi: both of them
#   other: an unrelated sense   U: unassignable
ANNOTATORS = {
    "ann": {"exact": 14, "parent": 48, "alt": 22, "multi": 6, "other": 5, "U": 5},
    "ben": {"exact": 30, "parent": 5, "alt": 47, "multi": 7, "other": 7, "U": 4},
    "cho": {"exact": 16, "parent": 12, "alt": 24, "multi": 40, "other": 4, "U": 4},
}
UNSURE_FACTOR = {"ann": 1.0, "ben": 0.95, "cho": 1.1}
SKIPS = {"ann": 0, "ben": 5, "cho": 9}

# ---------------------------------------------------------------------------
# Inventory
# ---------------------------------------------------------------------------


class Inventory:
    """One lexelt's senses in outline order."""

    def __init__(self, name: str, outline: str) -> None:
        self.name = name
        self.order: list[str] = []
        self.gloss: dict[str, str] = {}
        self.parent: dict[str, str | None] = {}
        self.children: dict[str, list[str]] = {}
        for line in outline.strip("\n").split("\n"):
            depth = (len(line) - len(line.lstrip(" "))) // 2
            sid, gloss = line.strip().split(": ", 1)
            expected_parent = sid.rsplit(".", 1)[0] if "." in sid else None
            assert sid.count(".") == depth, (name, sid)
            assert expected_parent is None or expected_parent in self.gloss, (name, sid)
            self.order.append(sid)
            self.gloss[sid] = gloss
            self.parent[sid] = expected_parent
            self.children[sid] = []
            if expected_parent is not None:
                self.children[expected_parent].append(sid)

    @property
    def leaves(self) -> list[str]:
        return [s for s in self.order if not self.children[s]]

    @property
    def mains(self) -> list[str]:
        return [s for s in self.order if self.parent[s] is None]

    def main_of(self, sid: str) -> str:
        return sid.split(".")[0]

    def leaves_under(self, sid: str) -> list[str]:
        if not self.children[sid]:
            return [sid]
        out: list[str] = []
        for c in self.children[sid]:
            out.extend(self.leaves_under(c))
        return out

    def sort(self, tags: list[str]) -> list[str]:
        rank = {s: i for i, s in enumerate(self.order)}
        return sorted(dict.fromkeys(tags), key=lambda t: rank.get(t, len(rank)))

    def outline(self) -> str:
        lines = [f"# lexelt {self.name}"]
        for sid in self.order:
            lines.append("  " * sid.count(".") + f"{sid}: {self.gloss[sid]}")
        return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------
# Building the demo
# ---------------------------------------------------------------------------

_ALT = re.compile(r"\[([^\[\]]*)\]")
_SLOT = re.compile(r"\{(Name|town|past)\}")
_HEAD = re.compile(r"<head>[^<]+</head>")


def expand(template: str, rng: random.Random) -> tuple[str, str]:
    """The sentence, and its skeleton (alternatives chosen, slots not yet filled)."""
    skeleton = _ALT.sub(lambda m: rng.choice(m.group(1).split("|")), template)
    lists = {"Name": NAMES, "town": TOWNS, "past": PAST}
    return _SLOT.sub(lambda m: rng.choice(lists[m.group(1)]), skeleton), skeleton


def sense_counts(inv: Inventory, total: int, rng: random.Random) -> dict[str, int]:
    """Skewed sense frequencies: earlier main senses and sub-senses are commoner."""
    main_w = [0.42, 0.28, 0.18, 0.12][: len(inv.mains)]
    weight: dict[str, float] = {}
    for mw, main in zip(main_w, inv.mains):
        leaves = inv.leaves_under(main)
        sub_w = [0.5, 0.3, 0.2, 0.1][: len(leaves)]
        s = sum(sub_w)
        for leaf, w in zip(leaves, sub_w):
            weight[leaf] = mw * w / s
    counts = {leaf: 1 for leaf in inv.leaves}
    leaves = inv.leaves
    ws = [weight[leaf] for leaf in leaves]
    for _ in range(total - len(leaves)):
        counts[rng.choices(leaves, ws)[0]] += 1
    return counts


def confusable(inv: Inventory, leaf: str, rng: random.Random) -> str:
    """The sense a reader of this instance is most likely to hesitate over."""
    cross = CROSS.get((inv.name, leaf))
    if cross is not None and rng.random() < 0.6:
        return rng.choice(inv.leaves_under(cross))
    parent = inv.parent[leaf]
    if parent is not None:
        sibs = [leaf2 for c in inv.children[parent] if c != leaf for leaf2 in inv.leaves_under(c)]
        if sibs:
            return rng.choice(sibs)
    others = [x for x in inv.leaves if inv.main_of(x) != inv.main_of(leaf)]
    return rng.choice(others)


def annotate(inv: Inventory, who: str, truth: str, alt: str, level: str,
             rng: random.Random) -> list[str]:
    if rng.random() >= UNSURE[level] * UNSURE_FACTOR[who]:
        return [truth]
    moves = ANNOTATORS[who]
    move = rng.choices(list(moves), list(moves.values()))[0]
    if move == "exact":
        return [truth]
    if move == "parent":
        parent = inv.parent[truth]
        if parent is None:  # a main sense without sub-senses: nothing coarser
            return [truth] if rng.random() < 0.6 else [alt]
        if who == "ann":  # ann retreats to the main sense
            return [inv.main_of(truth)]
        return [parent]
    if move == "alt":
        return [alt]
    if move == "multi":
        second = alt
        if inv.main_of(alt) != inv.main_of(truth) and rng.random() < 0.5:
            second = inv.main_of(alt)  # e.g. "1.1 2"
        return inv.sort([truth, second])
    if move == "other":
        others = [x for x in inv.leaves if inv.main_of(x) != inv.main_of(truth)]
        return [rng.choice(others)]
    return ["U"]


def weights_text(tags: list[str], percents: list[int]) -> str:
    def fmt(p: int) -> str:
        return f"{p / 100:.2f}".rstrip("0").rstrip(".") if p < 100 else "1"
    return " ".join(f"{t}/{fmt(p)}" for t, p in zip(tags, percents))


def split_percent(first: int, rest: int, rng: random.Random) -> list[int]:
    """``first`` percent for the top tag, the remainder over ``rest`` more tags,
    each no larger than the one before it."""
    left = 100 - first
    if rest == 1:
        assert left <= first
        return [first, left]
    a = rng.randint((left + 1) // 2, min(first, left - 1))
    return [first, a, left - a]


def system_answer(inv: Inventory, kind: str, truth: str, alt: str,
                  rng: random.Random) -> str | None:
    if kind == "neural":
        r = rng.random()
        top = truth if r < 0.80 else alt if r < 0.93 else rng.choice(inv.leaves)
        if rng.random() < 0.25:
            return top
        second = alt if top != alt else truth
        if second == top:
            second = rng.choice([x for x in inv.leaves if x != top])
        first = rng.randint(50, 95) if top == truth else rng.randint(50, 75)
        tags = [top, second]
        if rng.random() < 0.2 and first <= 85:
            tags.append(rng.choice([x for x in inv.leaves if x not in tags]))
        return weights_text(tags, split_percent(first, len(tags) - 1, rng))
    # lesk: gloss overlap, weak and flat; some answers at the main-sense level
    if rng.random() < 0.04:
        return None
    r = rng.random()
    top = truth if r < 0.47 else alt if r < 0.62 else rng.choice(inv.leaves)
    if rng.random() < 0.12 and inv.parent[top] is not None:
        top = inv.main_of(top)
    if rng.random() < 0.15:
        return top
    n_more = 1 if rng.random() < 0.55 else 2
    pool = [x for x in inv.leaves if x != top and not x.startswith(top + ".")]
    more = rng.sample(pool, n_more)
    tags = [top] + more
    first = rng.randint(50, 80) if n_more == 1 else rng.randint(40, 60)
    return weights_text(tags, split_percent(first, n_more, rng))


def build(rng: random.Random):
    inventories: list[Inventory] = []
    instances: list[tuple[str, str, str, str, str]] = []  # lexelt, id, truth, alt, level
    contexts: dict[str, str] = {}
    for name, total, outline, templates in LEXELTS:
        inv = Inventory(name, outline)
        inventories.append(inv)
        assert sorted(templates) == sorted(inv.leaves), name
        truths: list[str] = []
        for leaf, n in sense_counts(inv, total, rng).items():
            truths.extend([leaf] * n)
        rng.shuffle(truths)
        seen: set[str] = set()
        skeletons: set[str] = set()
        for i, truth in enumerate(truths, 1):
            iid = f"{name}.{i:03d}"
            # Prefer sentences that differ by more than a name or a date.
            for attempt in range(300):
                sentence, skeleton = expand(rng.choice(templates[truth]), rng)
                if sentence not in seen and (skeleton not in skeletons or attempt >= 100):
                    break
            else:
                raise SystemExit(f"{name} {truth}: templates too few for {truths.count(truth)} instances")
            seen.add(sentence)
            skeletons.add(skeleton)
            contexts[iid] = sentence
            level = rng.choices([d for d, _ in DIFFICULTY], [w for _, w in DIFFICULTY])[0]
            instances.append((name, iid, truth, confusable(inv, truth, rng), level))
    return inventories, instances, contexts


def render(rng: random.Random) -> tuple[dict[str, str], list[tuple[str, str, str]]]:
    inventories, instances, contexts = build(rng)
    invs = {inv.name: inv for inv in inventories}
    files: dict[str, str] = {}
    files["inventory.txt"] = "\n".join(inv.outline() for inv in inventories)

    rows = ["lexelt\tinstance\tcontext"]
    for lexelt, iid, *_ in instances:
        assert "\t" not in contexts[iid] and '"' not in contexts[iid]
        assert len(_HEAD.findall(contexts[iid])) == 1
        rows.append(f"{lexelt}\t{iid}\t{contexts[iid]}")
    files["contexts.tsv"] = "\n".join(rows) + "\n"

    ids = [iid for _, iid, *_ in instances]
    counts: dict[str, int] = {}
    for who in ANNOTATORS:
        skipped = set(rng.sample(ids, SKIPS[who]))
        lines = []
        for lexelt, iid, truth, alt, level in instances:
            tags = annotate(invs[lexelt], who, truth, alt, level, rng)
            if iid not in skipped:
                lines.append(f"{lexelt} {iid} {' '.join(tags)}")
        counts[who] = len(lines)
        files[f"annotator_{who}.key"] = "\n".join(lines) + "\n"

    for kind in ("lesk", "neural"):
        lines = []
        for lexelt, iid, truth, alt, _level in instances:
            answer = system_answer(invs[lexelt], kind, truth, alt, rng)
            if answer is not None:
                lines.append(f"{lexelt} {iid} {answer}")
        counts[kind] = len(lines)
        files[f"system_{kind}.ans"] = "\n".join(lines) + "\n"

    files["README.md"] = readme(inventories, instances, counts)
    truth = [(lexelt, iid, t) for lexelt, iid, t, _a, _l in instances]
    return files, truth


def readme(inventories: list[Inventory], instances, counts: dict[str, int]) -> str:
    per_lexelt = {inv.name: 0 for inv in inventories}
    for lexelt, *_ in instances:
        per_lexelt[lexelt] += 1
    table = "\n".join(
        f"| `{inv.name}` | {len(inv.mains)} | {len(inv.order)} | {len(inv.leaves)} | {per_lexelt[inv.name]} |"
        for inv in inventories
    )
    n = len(instances)
    return f"""# Demo project

A small, invented word-sense annotation project for trying hieradjudicate
without any data of your own: {len(inventories)} lexelts, {n} instances, three
human annotators who disagree in the ways real annotators do, and two systems.

**Every file here is written by `generate.py`** (standard library only, fixed
random seed). Do not edit them by hand; change the script and run

    python resources/demo/generate.py

which rewrites the files byte-identically. `tests/project/test_demo_files.py` checks
that the committed files match the generator.

## Files

| file | format | content |
|---|---|---|
| `inventory.txt` | indented outline | the sense inventory: main senses, sub-senses, a few sub-sub-senses |
| `contexts.tsv` | table `lexelt, instance, context` | one sentence per instance, target marked `<head>..</head>` |
| `annotator_ann.key` | Senseval key | annotator ann, {counts['ann']} instances |
| `annotator_ben.key` | Senseval key | annotator ben, {counts['ben']} instances |
| `annotator_cho.key` | Senseval key | annotator cho, {counts['cho']} instances |
| `system_lesk.ans` | Senseval answer, weighted | a weak gloss-overlap style system, {counts['lesk']} instances answered |
| `system_neural.ans` | Senseval answer, weighted | a stronger system, {counts['neural']} instances answered |

## Lexelts

| lexelt | main senses | senses | leaves | instances |
|---|---|---|---|---|
{table}

Sense ids follow the outline: `2` is a main sense, `2.1` one of its
sub-senses, `2.1.1` a sub-sub-sense. Glosses and context sentences were
written for this demo; they are not taken from any dictionary or corpus.

## How the annotators behave

Most instances are easy and all three annotators choose the same leaf sense.
On harder instances they hesitate, each in their own way:

* **ann** retreats to the main sense when unsure (`2` where the others say `2.1`);
  annotated every instance.
* **ben** is fine-grained: picks a specific sub-sense even when it is the
  neighbouring one (`1.1` vs `1.2`); skipped a few instances.
* **cho** gives two senses when torn between them (`1.1 1.2`, `1.1 2`);
  skipped a few more.

All three occasionally choose a sense under another main sense, and
occasionally tag `U` (unassignable). The systems give weighted answers
(`1.1/0.7 1.2/0.3`) or single tags; lesk leaves some instances unanswered and
sometimes answers with a main sense.

The generator knows the sense it intended for each instance (the sentence is
written to fit it); it is not stored here, since finding it is the
lexicographer's job. `python resources/demo/generate.py --truth` prints it.
"""


def write_all(out_dir: Path) -> list[Path]:
    files, _ = render(random.Random(SEED))
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    for name, text in files.items():
        path = out_dir / name
        path.write_bytes(text.encode("utf-8"))
        written.append(path)
    return written


OUTPUT_FILES = [
    "inventory.txt", "contexts.tsv", "annotator_ann.key", "annotator_ben.key",
    "annotator_cho.key", "system_lesk.ans", "system_neural.ans", "README.md",
]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=Path(__file__).resolve().parent,
                    help="directory to write into (default: next to this script)")
    ap.add_argument("--truth", action="store_true",
                    help="print the intended sense of every instance instead of writing files")
    args = ap.parse_args(argv)
    if args.truth:
        _, truth = render(random.Random(SEED))
        for lexelt, iid, sense in truth:
            sys.stdout.write(f"{lexelt} {iid} {sense}\n")
        return 0
    for path in write_all(args.out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
