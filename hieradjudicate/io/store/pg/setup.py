"""``hieradjudicate server setup ADMIN_URL --leads A,B``: the administrator's part, once per database.

Makes (or brings up to date) the database's two roles and the schema ``hieradjudicate`` of
``SECURITY DEFINER`` functions owned by the NOLOGIN owner role (see :mod:`.ddl`), and makes the
named logins leads of the database: they may publish projects there, and manage the team of the
projects they lead, without CREATEROLE.  Run again to add leads or after updating the program.
"""

from __future__ import annotations

from typing import Any

from hieradjudicate.core.errors import ProjectError
from hieradjudicate.io.store.pg import ddl
from hieradjudicate.io.store.pg.connection import _first_line, _psycopg, connect
from hieradjudicate.io.store.pg.location import ServerLocation, parse_location

_A = ddl.ADMIN_SCHEMA

ROLE_NAME = f"""
CREATE OR REPLACE FUNCTION {_A}.role_name(p text, kind text) RETURNS text
LANGUAGE sql STABLE SET search_path = pg_catalog, pg_temp AS $body$
    SELECT CASE WHEN octet_length(n) <= 63 THEN n
                ELSE 'hadj_' || left(p, 20) || '_' || left(encode(sha256(convert_to(p, 'UTF8')), 'hex'), 10)
                     || '_' || kind || '_' || t END
    FROM (SELECT t, 'hadj_' || p || '_' || kind || '_' || t AS n
          FROM (SELECT left(encode(sha256(convert_to(current_database()::text, 'UTF8')), 'hex'), 8) AS t) x) y
$body$"""


def _run_template_sql(owner: str) -> str:
    _plain(owner)
    replace = f"\n        st := replace(st, '@owner@', quote_ident('{owner}'));"
    return f"""
CREATE OR REPLACE FUNCTION {_A}.run_template(stmts text[], p text) RETURNS void
LANGUAGE plpgsql SET search_path = pg_catalog, pg_temp AS $body$
DECLARE st text; sch text := 'hadj_' || p;
BEGIN
    FOREACH st IN ARRAY stmts LOOP
        st := replace(st, '@s@', quote_ident(sch));
        st := replace(st, '@channel@', quote_literal(sch));
        st := replace(st, '@lead@', quote_ident({_A}.role_name(p, 'lead')));
        st := replace(st, '@lead_lit@', quote_literal({_A}.role_name(p, 'lead')));
        st := replace(st, '@adj@', quote_ident({_A}.role_name(p, 'adjudicator')));
        st := replace(st, '@viewer@', quote_ident({_A}.role_name(p, 'viewer')));
        st := replace(st, '@viewer_lit@', quote_literal({_A}.role_name(p, 'viewer')));{replace}
        EXECUTE st;
    END LOOP;
END
$body$"""


def _array(statements: list[str]) -> str:
    """A text[] literal of statements, dollar-quoted."""
    for st in statements:
        if "$q$" in st:
            raise AssertionError("a template holds $q$")
    return "ARRAY[" + ",\n".join(f"$q${st}$q$" for st in statements) + "]::text[]"


def _plain(name: str) -> str:
    """A role name the program made (letters, digits, _): safe inside a SQL literal."""
    import re

    if not re.fullmatch(r"[a-z0-9_]+", name):
        raise AssertionError(name)
    return name


_CHECK_PROJECT = """
    IF p IS NULL OR p !~ '^[a-z][a-z0-9_]{0,39}$' THEN
        RAISE EXCEPTION 'project name % must start with a letter and hold only lower-case letters, digits and _ (at most 40)', p
            USING ERRCODE = 'invalid_parameter_value';
    END IF;"""


def _functions(leads: str) -> list[str]:
    leads_lit = f"'{_plain(leads)}'"
    create = f"""
CREATE OR REPLACE FUNCTION {_A}.create_project(p text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $body$
DECLARE caller text := session_user; sch text := 'hadj_' || p; k text; r text; rr record;
BEGIN{_CHECK_PROJECT}
    IF NOT pg_has_role(caller, {leads_lit}, 'MEMBER') THEN
        RAISE EXCEPTION '% is not a lead of this database: the administrator names leads with hieradjudicate server setup URL --leads %', caller, caller
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = sch) THEN
        RAISE EXCEPTION 'a project % exists already in this database; choose another ?project= name', p
            USING ERRCODE = 'duplicate_schema';
    END IF;
    FOREACH k IN ARRAY ARRAY['lead', 'adjudicator', 'viewer'] LOOP
        r := {_A}.role_name(p, k);
        SELECT oid, rolcanlogin OR rolsuper OR rolcreaterole OR rolcreatedb OR rolbypassrls AS odd
            INTO rr FROM pg_roles WHERE rolname = r;
        IF rr.oid IS NULL THEN
            EXECUTE format('CREATE ROLE %I NOLOGIN', r);
        ELSIF rr.odd OR EXISTS (SELECT 1 FROM pg_auth_members WHERE member = rr.oid) THEN
            RAISE EXCEPTION 'the role % exists with rights of its own; the administrator must drop it', r
                USING ERRCODE = 'insufficient_privilege';
        ELSE  -- left by a project of this name that the administrator dropped: no members kept
            FOR rr IN SELECT m.rolname FROM pg_auth_members a JOIN pg_roles m ON m.oid = a.member
                         WHERE a.roleid = (SELECT oid FROM pg_roles WHERE rolname = r) LOOP
                EXECUTE format('REVOKE %I FROM %I', r, rr.rolname);
            END LOOP;
        END IF;
    END LOOP;
    EXECUTE format('GRANT %I TO %I', {_A}.role_name(p, 'lead'), caller);
    EXECUTE format('CREATE SCHEMA %I', sch);
    PERFORM {_A}.run_template({_array(ddl.templated(ddl.TABLES))}, p);
    PERFORM {_A}.run_template({_array(ddl.templated(ddl.FUNCTIONS))}, p);
    PERFORM {_A}.run_template({_array(ddl.templated(ddl.LOAD_GRANTS))}, p);
END
$body$"""
    seal = f"""
CREATE OR REPLACE FUNCTION {_A}.seal_project(p text) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $body$
DECLARE sch text := 'hadj_' || p; t text; bad boolean;
BEGIN{_CHECK_PROJECT}
    IF NOT EXISTS (SELECT 1 FROM pg_namespace WHERE nspname = sch) THEN
        RAISE EXCEPTION 'there is no project % in this database', p USING ERRCODE = 'undefined_object';
    END IF;
    IF NOT pg_has_role(session_user, {_A}.role_name(p, 'lead'), 'MEMBER') THEN
        RAISE EXCEPTION '% is not a lead of project %', session_user, p USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF to_regproc(quote_ident(sch) || '.check_decision') IS NOT NULL THEN
        RAISE EXCEPTION 'project % is published already', p USING ERRCODE = 'insufficient_privilege';
    END IF;
    -- what a lead loads before the rules are on is the published history only (no row in a person's name)
    EXECUTE format('SELECT EXISTS (SELECT 1 FROM %I.decisions WHERE team_role <> ''file'')', sch) INTO bad;
    IF bad THEN
        RAISE EXCEPTION 'publishing copies the history of a file (team_role file) only' USING ERRCODE = 'insufficient_privilege';
    END IF;
    FOREACH t IN ARRAY ARRAY['files', 'batches', 'decisions'] LOOP
        EXECUTE format('SELECT setval(pg_get_serial_sequence(%L, ''id''), GREATEST((SELECT max(id) FROM %I.%I), 1),'
                       ' (SELECT max(id) FROM %I.%I) IS NOT NULL)', sch || '.' || t, sch, t, sch, t);
    END LOOP;
    PERFORM {_A}.run_template({_array(ddl.templated(ddl.SECURITY))}, p);
END
$body$"""
    member = f"""
CREATE OR REPLACE FUNCTION {_A}.set_member(p text, kind text, login text, add boolean) RETURNS void
LANGUAGE plpgsql SECURITY DEFINER SET search_path = pg_catalog, pg_temp AS $body$
DECLARE r text;
BEGIN{_CHECK_PROJECT}
    IF kind IS NULL OR kind NOT IN ('lead', 'adjudicator', 'viewer') THEN
        RAISE EXCEPTION 'a project role is lead, adjudicator or viewer, not %', kind
            USING ERRCODE = 'invalid_parameter_value';
    END IF;
    IF to_regproc(quote_ident('hadj_' || p) || '.check_decision') IS NULL THEN
        RAISE EXCEPTION 'there is no project % in this database', p USING ERRCODE = 'undefined_object';
    END IF;
    IF NOT pg_has_role(session_user, {_A}.role_name(p, 'lead'), 'MEMBER') THEN
        RAISE EXCEPTION 'only a lead of project % may change its team (% is not)', p, session_user
            USING ERRCODE = 'insufficient_privilege';
    END IF;
    IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = login AND rolcanlogin) THEN
        RAISE EXCEPTION 'there is no login % on the server (the administrator creates it: createuser %)', login, login
            USING ERRCODE = 'undefined_object';
    END IF;
    r := {_A}.role_name(p, kind);
    IF add THEN
        EXECUTE format('GRANT %I TO %I', r, login);
    ELSE
        EXECUTE format('REVOKE %I FROM %I', r, login);
    END IF;
END
$body$"""
    return [create, seal, member]


def setup(url: str, leads: list[str]) -> list[str]:
    """Run the administrator's set-up on the URL's database; returns lines saying what was done."""
    from psycopg import sql

    loc = parse_location(url, need_project=False)
    psycopg = _psycopg()
    owner, lead_group = loc.db_role("owner"), loc.db_role("leads")
    done: list[str] = []
    with connect(loc, autocommit=False) as conn:
        try:
            with conn.cursor() as cur:
                admin, superuser, createrole = cur.execute(
                    "SELECT current_user, rolsuper, rolcreaterole FROM pg_roles"
                    " WHERE rolname = current_user").fetchone()
                if not (superuser or createrole):
                    raise ProjectError(f"{loc}: server setup needs the administrator's login (a superuser); "
                                       f"{admin} is not one")
                db_owner = cur.execute("SELECT pg_get_userbyid(datdba) FROM pg_database"
                                       " WHERE datname = current_database()").fetchone()[0]
                for login in leads:
                    found = cur.execute("SELECT rolcanlogin, rolsuper, rolcreaterole FROM pg_roles"
                                        " WHERE rolname = %s", (login,)).fetchone()
                    if found is None or not found[0]:
                        raise ProjectError(f"{loc}: there is no login {login!r} on the server (create it "
                                           f"first: createuser {login}); nothing was changed")
                    if found[1] or found[2]:
                        raise ProjectError(
                            f"{loc}: {login} has {'SUPERUSER' if found[1] else 'CREATEROLE'}, which gives "
                            f"the whole server; a lead needs neither (ALTER ROLE {login} NOSUPERUSER "
                            "NOCREATEROLE); nothing was changed")
                    if login == db_owner:
                        raise ProjectError(
                            f"{loc}: {login} owns the database {loc.dbname} (an owner may drop it and every "
                            f"project in it); make the administrator its owner first (ALTER DATABASE "
                            f"{loc.dbname} OWNER TO {admin}); nothing was changed")
                for role, extra in ((owner, "CREATEROLE"), (lead_group, "")):
                    exists = cur.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone()
                    verb = "ALTER" if exists else "CREATE"
                    cur.execute(sql.SQL(f"{verb} ROLE {{}} NOLOGIN {extra}").format(sql.Identifier(role)))
                    if not exists:
                        done.append(f"created role {role}")
                cur.execute(sql.SQL("GRANT CREATE ON DATABASE {} TO {}").format(
                    sql.Identifier(loc.dbname), sql.Identifier(owner)))
                cur.execute(sql.SQL("CREATE SCHEMA IF NOT EXISTS {} AUTHORIZATION {}").format(
                    sql.Identifier(_A), sql.Identifier(owner)))
                cur.execute(sql.SQL("ALTER SCHEMA {} OWNER TO {}").format(sql.Identifier(_A), sql.Identifier(owner)))
                cur.execute(sql.SQL("REVOKE ALL ON SCHEMA {} FROM PUBLIC").format(sql.Identifier(_A)))
                cur.execute(sql.SQL("GRANT USAGE ON SCHEMA {} TO PUBLIC").format(sql.Identifier(_A)))
                for statement in [ROLE_NAME, _run_template_sql(owner), *_functions(lead_group)]:
                    cur.execute(statement)
                signatures = ("role_name(text, text)", "run_template(text[], text)", "create_project(text)",
                              "seal_project(text)", "set_member(text, text, text, boolean)")
                for sig in signatures:
                    cur.execute(sql.SQL(f"ALTER FUNCTION {_A}.{sig} OWNER TO {{}}").format(sql.Identifier(owner)))
                    cur.execute(f"REVOKE ALL ON FUNCTION {_A}.{sig} FROM PUBLIC")
                for sig in signatures[2:]:
                    cur.execute(f"GRANT EXECUTE ON FUNCTION {_A}.{sig} TO PUBLIC")
                done.append(f"functions of schema {_A} owned by {owner} (NOLOGIN)")
                for login in leads:
                    cur.execute(sql.SQL("GRANT {} TO {}").format(sql.Identifier(lead_group), sql.Identifier(login)))
                    done.append(f"{login} may publish projects in {loc.dbname}")
            conn.commit()
        except ProjectError:
            conn.rollback()
            raise
        except psycopg.Error as exc:
            conn.rollback()
            raise ProjectError(f"{loc}: server setup failed, nothing was changed ({_first_line(exc)})") from None
    return done


def not_set_up(loc: ServerLocation, exc: Any) -> str | None:
    """A sentence when an error says the database was never set up (else None)."""
    text = _first_line(exc)
    if f"{_A}." in text or f'schema "{_A}"' in text:
        return (f"{loc}: the database {loc.dbname} is not set up for team projects; its administrator "
                f"runs once: hieradjudicate server setup postgresql://ADMIN@HOST:PORT/{loc.dbname} "
                "--leads LOGIN")
    return None
