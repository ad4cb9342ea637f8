"""docs/architecture.md's table of the daemon's layers stays true: every
daemon source file is in one layer, and includes only files of its own layer
or below. The table in the document is what is checked, so the two cannot
drift apart. No two modules (foo.h and foo.cc are one) depend on each other,
directly or around a loop: a layer's files may include each other, so the
layer rule alone does not forbid it."""
import os
import unittest

from archdoc import daemon_sources, includes, layer_of, layer_table, module_of


def module_graph():
    """{module: set of modules it includes}, over the daemon's own sources."""
    graph = {}
    for path in daemon_sources():
        deps = graph.setdefault(module_of(path), set())
        deps.update(inc for inc in includes(path) if inc != module_of(path) and inc != "char_width_table")
    return graph


def cycles(graph):
    """Each cycle once, as [a, b, ..., a]: depth-first, a cycle is a path back
    to a module still on the stack."""
    found, done, stack = [], set(), []

    def visit(m):
        stack.append(m)
        for d in sorted(graph.get(m, ())):
            if d in stack:
                found.append(stack[stack.index(d):] + [d])
            elif d not in done:
                visit(d)
        stack.pop()
        done.add(m)

    for m in sorted(graph):
        if m not in done:
            visit(m)
    return found


class Layers(unittest.TestCase):
    def test_every_file_includes_only_its_layer_or_below(self):
        layers = layer_table()
        self.assertGreaterEqual(len(layers), 6, layers)
        problems = []
        for path in daemon_sources():
            own = layer_of(module_of(path), layers)
            if own is None:
                problems.append("%s is in no layer of docs/architecture.md" % os.path.basename(path))
                continue
            for inc in includes(path):
                if inc == "char_width_table":
                    continue
                theirs = layer_of(inc, layers)
                if theirs is None:
                    problems.append("%s includes %s.h, which is in no layer" % (os.path.basename(path), inc))
                elif theirs > own:
                    problems.append("%s (%s) includes %s.h (%s, a layer above)" % (
                        os.path.basename(path), layers[own][0], inc, layers[theirs][0]))
        self.assertEqual(problems, [], "\n".join(problems))

    def test_no_module_depends_on_itself_through_others(self):
        found = cycles(module_graph())
        self.assertEqual(found, [], "module cycles:\n" + "\n".join(" -> ".join(c) for c in found))

    def test_the_cycle_check_sees_a_cycle(self):
        # The check itself: a loop of three is found, a diamond is not one.
        self.assertEqual(cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}), [["a", "b", "c", "a"]])
        self.assertEqual(cycles({"a": {"b", "c"}, "b": {"d"}, "c": {"d"}, "d": set()}), [])


if __name__ == "__main__":
    unittest.main()
