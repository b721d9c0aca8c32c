#!/usr/bin/env python3
"""Writes the seed corpus of every fuzz target (fuzz/corpus/<target>/seed-*) from the project's
fixtures and the SwarmKit examples beside the checkout (../shared/swarmkit/examples,
../shared/corpus when present). Deterministic: run it again and the same files come out.

    python3 fuzz/seed_corpus.py

Inputs are kept small (a target explores shapes, not sizes), so the committed corpus stays a few
hundred KB."""

import hashlib
import os
import pathlib
import random

FUZZ = pathlib.Path(__file__).resolve().parent
REPO = FUZZ.parent
SHARED = REPO.parent / "shared"
MAX_FILE = 4 << 10  # one file of a seed
MAX_SEED = 12 << 10  # one seed


def write(target, name, data):
    if isinstance(data, str):
        data = data.encode()
    if not data or len(data) > MAX_SEED:
        return
    folder = FUZZ / "corpus" / target
    folder.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha1(data).hexdigest()[:12]
    (folder / f"seed-{name}-{digest}").write_bytes(data)


def files_under(root, suffixes=(".yaml", ".yml", ".md", ".toml", ".json")):
    root = pathlib.Path(root)
    if not root.exists():
        return []
    return sorted(
        p
        for p in root.rglob("*")
        if p.is_file() and p.suffix in suffixes and p.stat().st_size <= MAX_FILE
        and ".swarmkit" not in p.parts
    )


def fixture(root, prefix="/ws"):
    """A lenient fixture of the files under `root`, under `prefix`."""
    out = []
    for path in files_under(root):
        rel = path.relative_to(root).as_posix()
        if path.name == "README.md" or path.name == "expected.json":
            continue
        out.append(f"//- {prefix}/{rel}\n{path.read_text(errors='replace')}")
    return "".join(t if t.endswith("\n") else t + "\n" for t in out)


def trees():
    """(name, root) of every small workspace the project ships or reads."""
    parity = REPO / "server/tests/fixtures/parity"
    for case in sorted(parity.iterdir()) if parity.exists() else []:
        if (case / "ws").is_dir():
            yield f"parity-{case.name}", case / "ws"
    yield "estate", REPO / "tests/fixtures/estate"
    yield "demo-build", REPO / "examples/demo/build-conventions"
    yield "fixes-ws", REPO / "server/tests/fixtures/fixes/ws"
    for name in ["hello-swarm", "reference"]:
        yield f"swarmkit-{name}", SHARED / "swarmkit/examples" / name


def yaml_seeds():
    roots = [
        REPO / "server/tests/fixtures/schema",
        REPO / "examples/demo/build-conventions",
        SHARED / "swarmkit/examples/hello-swarm",
        SHARED / "swarmkit/examples/reference",
    ]
    for root in roots:
        for path in files_under(root, (".yaml", ".yml")):
            write("yaml", path.stem, path.read_bytes())
    write("yaml", "env", (
        "db:\n  host: localhost\n  port: 5432\nflag: true\nlist: [a, b]\nsecrets: [db.host]\n"
        "#%env\n"
        "apiVersion: swarmkit/v1\nkind: Skill\nmetadata:\n  id: ${db.host}-skill\n"
        "  name: \"${HOME}/x $${literal} ${MISSING:-fallback}\"\nport: ${db.port}\n"
        "flag: ${flag}\nlist: ${list}\nnested: '${NESTED}'\nempty: ${EMPTY:-}\n"
    ))
    write("yaml", "anchors", (
        "base: &b {a: 1, b: [x, y]}\nuse: *b\nmerge:\n  <<: *b\n  c: ${HOME}\n"
        "seq: &s [*b, *b]\nmore: [*s, *s]\nkey: |\n  block ${PORT}\n  text\nfolded: >-\n  a\n  b\n"
        "dup: 1\ndup: 2\n? complex\n: value\n"
    ))


def skill_md_seeds():
    roots = [REPO / "examples/demo/agent-skills", REPO / "server/tests/fixtures/fixes/skills"]
    for root in roots:
        for path in files_under(root, (".md",)):
            if path.name == "SKILL.md":
                write("skill_md", path.parent.name, path.read_bytes())
    corpus = sorted(p for p in (SHARED / "corpus").rglob("*.md")) if (SHARED / "corpus").exists() else []
    corpus = [p for p in corpus if p.stat().st_size <= MAX_FILE]
    for path in random.Random(7).sample(corpus, min(24, len(corpus))):
        write("skill_md", "corpus-" + path.parent.name, path.read_bytes())
    write("skill_md", "extensions", (
        "---\nname: demo\ndescription: Use when testing. Does things.\nallowed-tools: Read, Bash(git:*)\n"
        "dependencies:\n  - name: other\n    type: skill\nmetadata:\n  chain:\n    - other\n    - name: third\n"
        "  precondition:\n    all:\n      - state: repo.clean\n        op: eq\n        value: true\n"
        "  action_tool: run\n---\n# Title\n\nSee [ref](references/guide.md) and {baseDir}/scripts/run.sh.\n"
        "<!-- skillgraph: disable-next-line skill.unknown-field -->\n## Part\n```\n---\n```\n"
    ))
    write("skill_md", "bom-crlf", "\ufeff---\r\nname: x\r\ndescription: y\r\n---\r\nbody\r\n")
    write("skill_md", "unclosed", "---\nname: [unclosed\n")


def check_seeds():
    for name, root in trees():
        text = fixture(root)
        if len(text.encode()) > MAX_SEED:
            # Keep the manifest and the first files: enough for a workspace that means something.
            parts = text.split("//- ")
            text = ""
            for part in parts[1:]:
                if len((text + "//- " + part).encode()) > MAX_SEED:
                    break
                text += "//- " + part
        write("check", name, text)
    skills = REPO / "examples/demo/agent-skills"
    text = "//- /ws/skillgraph.toml\n" + (REPO / "examples/demo/skillgraph.toml").read_text()
    text += fixture(skills, "/ws/.claude/skills")
    write("check", "demo-skills", text[:MAX_SEED])


def edits_seeds():
    rng = random.Random(11)
    for name, root in trees():
        files = [p for p in files_under(root) if p.name not in ("README.md", "expected.json")]
        base = fixture(root)
        if not files or len(base.encode()) > 6 << 10:
            continue
        rels = ["/ws/" + p.relative_to(root).as_posix() for p in files]
        target = rng.choice(rels)
        size = len(pathlib.Path(root, target[4:]).read_bytes())
        at = rng.randrange(0, max(1, size))
        steps = [base]
        steps.append(f"//~ {target} {at} {at + 4}\nx")
        steps.append(f"//~ {target} {at} {at + 1}\n")
        steps.append(f"//x {rng.choice(rels)}")
        other = rng.choice(rels)
        steps.append(f"//> {other} {other.rsplit('/', 1)[0]}/moved.yaml")
        steps.append(f"//- {target}\n" + pathlib.Path(root, target[4:]).read_text(errors="replace"))
        write("edits", name, "\n//= \n".join(steps))


def frame(body):
    body = body.encode() if isinstance(body, str) else body
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


def transport_seeds():
    init = '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"processId":null,"rootUri":null,"capabilities":{}}}'
    session = [
        init,
        '{"jsonrpc":"2.0","method":"initialized","params":{}}',
        '{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"textDocument":{"uri":"file:///ws/SKILL.md","languageId":"markdown","version":1,"text":"---\\nname: a\\n---\\n"}}}',
        '{"jsonrpc":"2.0","id":2,"method":"textDocument/hover","params":{"textDocument":{"uri":"file:///ws/SKILL.md"},"position":{"line":1,"character":7}}}',
        '{"jsonrpc":"2.0","id":"s","result":null}',
        '{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"no"}}',
        '{"jsonrpc":"2.0","id":4,"method":"shutdown"}',
        '{"jsonrpc":"2.0","method":"exit"}',
    ]
    write("transport", "session", b"".join(frame(m) for m in session))
    write("transport", "bare-lf", b"content-length: %d\n\n%s" % (len(init), init.encode()))
    write("transport", "content-type", b"Content-Type: application/vscode-jsonrpc; charset=utf-8\r\n" + frame(init))
    write("transport", "short-length", b"Content-Length: 10\r\n\r\n" + init.encode() + frame(session[1]))
    write("transport", "long-length", b"Content-Length: 4000\r\n\r\n" + init.encode() + frame(session[1]))
    write("transport", "not-json", frame('{"jsonrpc":"2.0","id":5,"method":"x",') + frame("[1,2]"))
    write("transport", "surrogate", frame('{"jsonrpc":"2.0","method":"$/x","params":{"t":"\\ud83d"}}'))
    write("transport", "bad-id", frame('{"jsonrpc":"2.0","id":1.5,"method":"x"}') + frame('{"jsonrpc":"1.0","id":{},"method":"x"}'))
    write("transport", "no-length", b"X-Other: 1\r\n\r\n{}" + frame(init))
    write("transport", "garbage", b"hello\r\n\xff\xfe\r\n" + frame(b'{"id":7,"method":"\xff"}'))
    write("transport", "params-null", frame('{"jsonrpc":"2.0","id":9,"method":"shutdown","params":null}'))
    write("transport", "zero", b"Content-Length: 0\r\n\r\n" + b"Content-Length: 99999999999\r\n\r\n")


if __name__ == "__main__":
    yaml_seeds()
    skill_md_seeds()
    check_seeds()
    edits_seeds()
    transport_seeds()
    for target in sorted((FUZZ / "corpus").iterdir()):
        files = list(target.iterdir())
        print(f"{target.name}: {len(files)} files, {sum(f.stat().st_size for f in files)} bytes")
