"""The adjudicated gold back to INCEpTION / WebAnno as UIMA CAS XMI.

For every document of the project's XMI input, the first annotator's CAS is the base (its text,
sentences, tokens and every other layer stay as they were); the spans of the sense layer are
replaced by the resolved decisions (one span per tag, stacked where a decision keeps several
tags) and the whole is written as one zip: ``<document>.xmi`` per document and the
``TypeSystem.xml`` — the archive INCEpTION imports as UIMA CAS XMI (and that
:mod:`hieradjudicate.io.annotations.tools.uima` reads back as one set).  Unresolved instances have no
span in the export; the summary counts them.  Written to a temporary file and renamed.
"""

from __future__ import annotations

import io
import os
import re
import zipfile
from collections import Counter
from collections.abc import Iterable

from hieradjudicate.core.errors import ProjectError
from hieradjudicate.io.annotations.tools.uima import CasFile, iter_cas_files, load_cas, resolve_layer
from hieradjudicate.io.atomic import write_atomic
from hieradjudicate.io.exports.gold import ExportSummary
from hieradjudicate.io.store.records import DecisionFields

_SPAN = re.compile(r"^(?P<doc>.*):(?P<b>\d+)-(?P<e>\d+)$")


def export_gold_xmi(decisions: Iterable[DecisionFields], source: str, path: str | os.PathLike[str],
                    *, layer: str, feature: str) -> ExportSummary:
    """Write the resolved decisions as spans of ``layer`` with ``feature`` = the tag.

    ``source`` is the XMI input the project was built from (a file, a zip or a project export).
    """
    current: dict[str, DecisionFields] = {}
    for d in decisions:
        current[d.instance] = d
    by_doc: dict[str, list[tuple[int, int, str]]] = {}
    left_out: Counter[str] = Counter()
    for inst, d in current.items():
        if d.status != "resolved":
            left_out[d.status] += 1
            continue
        m = _SPAN.match(inst)
        if m is None:
            raise ProjectError(f"{inst}: not an XMI span instance (document:begin-end); an XMI "
                               "export needs a project built from XMI")
        for tag in d.tags:
            by_doc.setdefault(m["doc"], []).append((int(m["b"]), int(m["e"]), tag))
    bases: dict[str, CasFile] = {}
    for cf in iter_cas_files(source):
        if cf.document not in bases and cf.user != "curation":
            bases[cf.document] = cf
    missing = sorted(set(by_doc) - set(bases))
    if missing:
        raise ProjectError(f"{source}: no document {missing[0]!r} to write the gold into")
    out = io.BytesIO()
    written = 0
    typesystem = None
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as z:
        for doc in sorted(bases):
            cas = load_cas(bases[doc])
            name = resolve_layer(cas.typesystem, layer, bases[doc].where)
            T = cas.typesystem.get_type(name)
            for a in list(cas.select(name)):
                cas.remove(a)
            for b, e, tag in sorted(by_doc.get(doc, [])):
                cas.add(T(begin=b, end=e, **{feature: tag}))
                written += 1
            z.writestr(f"{doc}.xmi", cas.to_xmi())
            typesystem = cas.typesystem
        if typesystem is not None:
            z.writestr("TypeSystem.xml", typesystem.to_xml())
    target = os.fspath(path)
    write_atomic(target, out.getvalue())  # an exclusive temporary file renamed into place
    resolved = sum(1 for d in current.values() if d.status == "resolved")
    return ExportSummary(target, "xmi", written, resolved, sum(left_out.values()), dict(left_out))
