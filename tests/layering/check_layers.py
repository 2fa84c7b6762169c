#!/usr/bin/env python3
"""Fails when a module under service/src includes from a module on its own
layer or a higher one.

The layers are read from the table under "## Layers" in ARCHITECTURE.md, so
the document a newcomer reads and the rule this test enforces cannot drift
apart: moving a module means editing that table, and nothing else.

Checked, for every module folder under service/src:
  - the folder is in the table (a new module must be given a layer), and
    every module in the table has a folder;
  - each `#include "other/..."` of its sources names itself or a module on a
    lower layer;
  - each of its DEPS in service/CMakeLists.txt is on a lower layer, so the
    link graph says what the includes say.

Usage: check_layers.py ROOT               check the tree at ROOT
       check_layers.py --self-test ROOT   show on a copy of ROOT that planted bad
                                          includes are reported
"""
import os
import re
import shutil
import sys
import tempfile

INCLUDE = re.compile(r'^\s*#\s*include\s*"([^"/]+)/[^"]*"', re.M)
ROW = re.compile(r'^\|\s*(\d+)\s*\|([^|]*)\|')
MODULE_CALL = re.compile(r'dp_module\((\w+)([^)]*)\)')
SOURCE_ENDINGS = ('.h', '.cc', '.cc.in')


def read_layers(architecture_md):
    """{module: layer} from the first table under '## Layers'."""
    layers = {}
    in_section = False
    with open(architecture_md, encoding='utf-8') as f:
        for line in f:
            if line.startswith('## '):
                if in_section and layers:
                    break
                in_section = line.strip() == '## Layers'
                continue
            if not in_section:
                continue
            m = ROW.match(line)
            if not m:
                if layers and not line.startswith('|'):
                    break  # the table ended
                continue
            layer = int(m.group(1))
            for name in re.findall(r'`([a-z_]+)`', m.group(2)):
                if name in layers:
                    raise SystemExit(f'{architecture_md}: module {name} is on two layers')
                layers[name] = layer
    if not layers:
        raise SystemExit(f'{architecture_md}: no layer table under "## Layers"')
    return layers


def cmake_deps(service_cmake):
    """{module: [deps]} from the dp_module(...) calls."""
    deps = {}
    with open(service_cmake, encoding='utf-8') as f:
        text = f.read()
    for m in MODULE_CALL.finditer(text):
        words = m.group(2).split()
        got, on = [], False
        for w in words:
            if w == 'DEPS':
                on = True
            elif w.isupper():
                on = False
            elif on:
                got.append(w)
        deps[m.group(1)] = got
    return deps


def check(root):
    """The list of problems of the tree at root (empty: the layering holds)."""
    layers = read_layers(os.path.join(root, 'ARCHITECTURE.md'))
    src = os.path.join(root, 'service', 'src')
    problems = []
    folders = sorted(d for d in os.listdir(src) if os.path.isdir(os.path.join(src, d)))
    for name in folders:
        if name not in layers:
            problems.append(f'service/src/{name}: not in the layer table of ARCHITECTURE.md')
    for name in sorted(layers):
        if name not in folders:
            problems.append(f'ARCHITECTURE.md names module {name}, which has no folder')
    for name in folders:
        if name not in layers:
            continue
        for dirpath, _, files in os.walk(os.path.join(src, name)):
            for file in sorted(files):
                if not file.endswith(SOURCE_ENDINGS):
                    continue
                path = os.path.join(dirpath, file)
                rel = os.path.relpath(path, root)
                with open(path, encoding='utf-8', errors='replace') as f:
                    text = f.read()
                for m in INCLUDE.finditer(text):
                    other = m.group(1)
                    if other == name or other not in layers:
                        continue  # itself, or not a module (a system or generated header)
                    if layers[other] >= layers[name]:
                        line = text.count('\n', 0, m.start()) + 1
                        where = 'the same layer' if layers[other] == layers[name] else 'a higher layer'
                        problems.append(
                            f'{rel}:{line}: {name} (layer {layers[name]}) includes '
                            f'"{other}/..." from {where} (layer {layers[other]})')
    cmake = os.path.join(root, 'service', 'CMakeLists.txt')
    for name, deps in cmake_deps(cmake).items():
        if name not in layers:
            problems.append(f'service/CMakeLists.txt: module {name} is not in the layer table')
            continue
        for d in deps:
            if d in layers and layers[d] >= layers[name]:
                problems.append(f'service/CMakeLists.txt: {name} (layer {layers[name]}) '
                                f'links {d} (layer {layers[d]})')
    return problems


def self_test(root):
    """Copies the table, the module folders' sources and the CMake file to a
    temporary tree, plants an include of a same-layer and of a higher-layer
    module, and requires the check to report both (and nothing before)."""
    layers = read_layers(os.path.join(root, 'ARCHITECTURE.md'))
    by_layer = {}
    for name, layer in layers.items():
        by_layer.setdefault(layer, []).append(name)
    shared = next(sorted(ms) for l, ms in sorted(by_layer.items()) if len(ms) >= 2)
    low, top = min(layers, key=layers.get), max(layers, key=layers.get)
    with tempfile.TemporaryDirectory() as tmp:
        shutil.copy(os.path.join(root, 'ARCHITECTURE.md'), tmp)
        os.makedirs(os.path.join(tmp, 'service'))
        shutil.copy(os.path.join(root, 'service', 'CMakeLists.txt'), os.path.join(tmp, 'service'))
        shutil.copytree(os.path.join(root, 'service', 'src'), os.path.join(tmp, 'service', 'src'),
                        ignore=lambda d, files: [f for f in files if f.endswith('.json')])
        before = check(tmp)
        if before:
            print('self-test: the copied tree already fails:', *before, sep='\n  ')
            return 1
        planted = {
            os.path.join(tmp, 'service', 'src', shared[0], 'planted_sibling.h'):
                f'#include "{shared[1]}/x.h"\n',
            os.path.join(tmp, 'service', 'src', low, 'planted_upward.cc'):
                f'#include "{low}/y.h"\n#include "{top}/x.h"\n',
        }
        for path, text in planted.items():
            with open(path, 'w', encoding='utf-8') as f:
                f.write(text)
        after = check(tmp)
    want = [f'{shared[0]}/planted_sibling.h:1: {shared[0]}', f'{low}/planted_upward.cc:2: {low}']
    missed = [w for w in want if not any(w in p for p in after)]
    if missed or len(after) != len(want):
        print('self-test: the planted includes were not reported as expected:',
              *after, sep='\n  ')
        return 1
    print('self-test: both planted includes reported:', *after, sep='\n  ')
    return 0


def main(argv):
    if len(argv) == 3 and argv[1] == '--self-test':
        return self_test(argv[2])
    if len(argv) != 2:
        print(__doc__)
        return 2
    problems = check(argv[1])
    if problems:
        print('The layering of ARCHITECTURE.md does not hold:', *problems, sep='\n  ')
        return 1
    layers = read_layers(os.path.join(argv[1], 'ARCHITECTURE.md'))
    print(f'{len(layers)} modules on {len(set(layers.values()))} layers; every include and '
          'link goes to a lower layer')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))
