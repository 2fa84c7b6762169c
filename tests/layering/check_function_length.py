#!/usr/bin/env python3
"""Fails when a function under service/src has a body longer than the limit.

A long function mixes steps a reader has to tell apart by hand; at most
LIMIT lines per body keeps each one readable on one screen, and the steps
named. Lines are counted between the body's braces (the braces' own lines
excluded), blank and comment lines included: what a reader scrolls through.

How a body is found (a heuristic, enough for this code base's style): the
source is stripped of comments, string and character literals; every `{`
opened directly in a namespace, a class or at file level, whose preceding
text ends in `)` (optionally followed by const, noexcept, override, final,
a trailing return type or a constructor's initializer list) and does not
start with a control keyword, opens a function body. Lambdas and blocks
inside a body count toward the body they sit in.

Usage: check_function_length.py ROOT               check the tree at ROOT
       check_function_length.py --self-test ROOT   plant a function one line over
                                                   the limit in a copy, require it
                                                   reported (and one at the limit not)
"""
import os
import re
import shutil
import sys
import tempfile

LIMIT = 120
# Functions allowed over the limit for a while (file, name): each entry is
# checked to still be over it, so the list only shrinks. Empty: none is.
PENDING = set()
SOURCE_ENDINGS = ('.h', '.cc', '.cc.in')
SCOPE_WORDS = re.compile(r'\b(namespace|class|struct|union|enum)\b')
CONTROL = re.compile(r'^\s*(if|for|while|switch|catch|do|else)\b')
DECL_END = re.compile(r'\)\s*(const|noexcept|override|final|mutable|&|&&|\s|->[^{;]*)*$')


def strip(text):
    """The text with comments, string and char literals blanked (newlines kept)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('//', i):
            j = text.find('\n', i)
            j = n if j < 0 else j
            i = j
        elif text.startswith('/*', i):
            j = text.find('*/', i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r'[^\n]', ' ', text[i:j]))
            i = j
        elif text.startswith('R"', i):
            m = re.match(r'R"([^(\s]*)\(', text[i:])
            if not m:
                out.append(c)
                i += 1
                continue
            end = ')' + m.group(1) + '"'
            j = text.find(end, i + m.end())
            j = n if j < 0 else j + len(end)
            out.append('""' + re.sub(r'[^\n]', ' ', text[i:j])[2:])
            i = j
        elif c in '"\'':
            # A digit separator (1'000) is not a literal.
            if c == "'" and i > 0 and text[i - 1].isalnum() and i + 1 < n and text[i + 1].isalnum():
                out.append(' ')
                i += 1
                continue
            j = i + 1
            while j < n and text[j] != c and text[j] != '\n':
                j += 2 if text[j] == '\\' else 1
            out.append(c + ' ' * (j - i - 1) + c)
            i = j + 1
        elif c == '#' and (i == 0 or text[i - 1] == '\n'):
            # A preprocessor line (with its continuations) is not code.
            j = i
            while True:
                k = text.find('\n', j)
                if k < 0:
                    k = n
                    break
                if text[k - 1] != '\\':
                    break
                j = k + 1
            out.append(re.sub(r'[^\n]', ' ', text[i:k]))
            i = k
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def functions(text):
    """[(name, first_line, body_lines)] of the function bodies in text."""
    code = strip(text)
    found = []
    # Each open brace: ('scope'|'function'|'other', line, name).
    stack = []
    last = 0  # where the current declaration's text starts
    for i, c in enumerate(code):
        if c in ';':
            if not stack or stack[-1][0] == 'scope':
                last = i + 1
        elif c == '{':
            if stack and stack[-1][0] != 'scope':
                stack.append(('other', 0, ''))
                continue
            head = code[last:i]
            kind = 'other'
            name = ''
            flat = ' '.join(head.split())
            # A constructor's initializer list: the signature ends before its ':'.
            sig = re.sub(r'\)\s*:\s*[^;]*$', ')', flat) if re.search(r'\)\s*:[^:]', flat) else flat
            if SCOPE_WORDS.search(flat) and '(' not in flat:
                kind = 'scope'
            elif flat.startswith('extern "'):
                kind = 'scope'
            elif DECL_END.search(sig) and not CONTROL.match(sig) and '=' not in sig.split('(')[0]:
                kind = 'function'
                m = re.search(r'([~\w:]+|operator\s*\S+)\s*\(', sig)
                name = m.group(1) if m else sig[:40]
            line = code.count('\n', 0, i) + 1
            stack.append((kind, line, name))
            last = i + 1
        elif c == '}':
            if not stack:
                continue
            kind, line, name = stack.pop()
            if kind == 'function':
                end = code.count('\n', 0, i) + 1
                found.append((name, line, max(0, end - line - 1)))
            if not stack or stack[-1][0] == 'scope':
                last = i + 1
    return found


def check(root, limit=LIMIT, pending=frozenset()):
    src = os.path.join(root, 'service', 'src')
    problems = []
    still_long = set()
    for dirpath, _, files in os.walk(src):
        for file in sorted(files):
            if not file.endswith(SOURCE_ENDINGS):
                continue
            path = os.path.join(dirpath, file)
            with open(path, encoding='utf-8', errors='replace') as f:
                text = f.read()
            rel = os.path.relpath(path, root)
            for name, line, body in functions(text):
                if body <= limit:
                    continue
                if (rel, name) in pending:
                    still_long.add((rel, name))
                    continue
                problems.append(f'{rel}:{line}: {name}: {body} lines (limit {limit})')
    for rel, name in sorted(set(pending) - still_long):
        problems.append(f'{rel}: {name} is within the limit now: drop it from PENDING')
    return sorted(problems)


def planted(name, lines):
    body = ''.join(f'  x += {k};  // a "{{" in a string is not a brace\n' for k in range(lines))
    return f'int {name}(int x) {{\n{body}  return x;\n}}\n'


def self_test(root):
    with tempfile.TemporaryDirectory() as tmp:
        os.makedirs(os.path.join(tmp, 'service'))
        shutil.copytree(os.path.join(root, 'service', 'src'), os.path.join(tmp, 'service', 'src'),
                        ignore=lambda d, files: [f for f in files if f.endswith('.json')])
        before = check(tmp)
        folder = os.path.join(tmp, 'service', 'src', 'base')
        with open(os.path.join(folder, 'planted_length.cc'), 'w', encoding='utf-8') as f:
            f.write('namespace dp {\nnamespace {\n')
            # The body is the lines between the braces: LIMIT - 1 statements
            # and the return make LIMIT lines (allowed), one more is over.
            f.write(planted('AtTheLimit', LIMIT - 1))
            f.write(planted('OneOver', LIMIT))
            f.write('}  // namespace\n}  // namespace dp\n')
        after = check(tmp)
    new = [p for p in after if p not in before]
    if len(new) != 1 or 'OneOver' not in new[0] or f'{LIMIT + 1} lines' not in new[0]:
        print('self-test: expected exactly OneOver reported, got:', *new, sep='\n  ')
        return 1
    print('self-test: the planted over-long function was reported:', new[0])
    return 0


def main(argv):
    if len(argv) == 3 and argv[1] == '--self-test':
        return self_test(argv[2])
    if len(argv) != 2:
        print(__doc__)
        return 2
    problems = check(argv[1], pending=PENDING)
    if problems:
        print(f'Functions over {LIMIT} lines (split them into named steps):', *problems,
              sep='\n  ')
        return 1
    print(f'every function body under service/src is at most {LIMIT} lines' +
          (f', but for {len(PENDING)} pending: ' + ', '.join(sorted(n for _, n in PENDING))
           if PENDING else ''))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
