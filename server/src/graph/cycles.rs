//! Directed graphs over nodes `0..n` (numbered in the order they are written, so "earliest" is
//! "first in the file"): strongly connected components by an iterative Tarjan, one shortest cycle
//! per cyclic component, and the components in dependency order. Everything here is linear in
//! nodes plus edges and uses no recursion, whatever the shape of the graph.

use std::collections::VecDeque;

/// A directed graph over nodes `0..n`, with edges in the order they were written. Repeated edges
/// are allowed and change nothing.
#[derive(Clone, Debug, Default)]
pub struct Digraph {
    pub edges: Vec<Vec<usize>>,
}

/// The strongly connected components of a [`Digraph`].
#[derive(Clone, Debug, Default)]
pub struct Components {
    /// The component of each node.
    pub of: Vec<usize>,
    /// The nodes of each component, ascending. Components come in dependency order: every
    /// component after all the components its edges reach (edges pointing from a node to what it
    /// depends on, so prerequisites come first).
    pub members: Vec<Vec<usize>>,
    /// Whether each component holds a cycle: more than one node, or a node with an edge to itself.
    pub cyclic: Vec<bool>,
}

impl Components {
    pub fn on_cycle(&self, node: usize) -> bool {
        self.cyclic[self.of[node]]
    }
}

impl Digraph {
    pub fn new(nodes: usize) -> Self {
        Digraph {
            edges: vec![Vec::new(); nodes],
        }
    }

    pub fn len(&self) -> usize {
        self.edges.len()
    }

    pub fn is_empty(&self) -> bool {
        self.edges.is_empty()
    }

    pub fn add_node(&mut self) -> usize {
        self.edges.push(Vec::new());
        self.edges.len() - 1
    }

    pub fn add_edge(&mut self, from: usize, to: usize) {
        self.edges[from].push(to);
    }

    /// Strongly connected components (Tarjan's algorithm with an explicit call stack, so a chain
    /// of a million nodes needs no deeper native stack than a chain of two).
    pub fn components(&self) -> Components {
        const UNSEEN: usize = usize::MAX;
        let n = self.edges.len();
        let mut order = vec![UNSEEN; n];
        let mut low = vec![0usize; n];
        let mut on_stack = vec![false; n];
        let mut stack: Vec<usize> = Vec::new();
        // (node, index of the next edge to follow)
        let mut calls: Vec<(usize, usize)> = Vec::new();
        let mut of = vec![UNSEEN; n];
        let mut members: Vec<Vec<usize>> = Vec::new();
        let mut counter = 0;
        for root in 0..n {
            if order[root] != UNSEEN {
                continue;
            }
            // The node to enter next: numbered and put on both stacks.
            let mut entering = Some(root);
            loop {
                if let Some(node) = entering.take() {
                    order[node] = counter;
                    low[node] = counter;
                    counter += 1;
                    stack.push(node);
                    on_stack[node] = true;
                    calls.push((node, 0));
                }
                let Some(&mut (node, ref mut next)) = calls.last_mut() else {
                    break;
                };
                if let Some(&to) = self.edges[node].get(*next) {
                    *next += 1;
                    if order[to] == UNSEEN {
                        entering = Some(to);
                    } else if on_stack[to] {
                        low[node] = low[node].min(order[to]);
                    }
                    continue;
                }
                calls.pop();
                if let Some(&(parent, _)) = calls.last() {
                    low[parent] = low[parent].min(low[node]);
                }
                if low[node] == order[node] {
                    let component = members.len();
                    let mut nodes = Vec::new();
                    while let Some(member) = stack.pop() {
                        on_stack[member] = false;
                        of[member] = component;
                        nodes.push(member);
                        if member == node {
                            break;
                        }
                    }
                    nodes.sort_unstable();
                    members.push(nodes);
                }
            }
        }
        let cyclic = members
            .iter()
            .map(|nodes| nodes.len() > 1 || self.edges[nodes[0]].contains(&nodes[0]))
            .collect();
        Components {
            of,
            members,
            cyclic,
        }
    }

    /// One cycle per cyclic component: the shortest cycle through the component's earliest node
    /// (a breadth-first search inside the component, edges tried in written order), as a node
    /// path `[a, b, ..., z]` that returns to `a`. Sorted by first node. Every cycle of the graph
    /// lies in exactly one component, so every cyclic tangle is reported, and reported once.
    pub fn cycles(&self) -> Vec<Vec<usize>> {
        self.cycles_of(&self.components())
    }

    pub fn cycles_of(&self, components: &Components) -> Vec<Vec<usize>> {
        let mut previous = vec![usize::MAX; self.edges.len()];
        let mut found: Vec<Vec<usize>> = components
            .members
            .iter()
            .enumerate()
            .filter(|(c, _)| components.cyclic[*c])
            .map(|(c, nodes)| self.shortest_cycle(nodes[0], c, components, &mut previous))
            .collect();
        found.sort_unstable_by_key(|cycle| cycle[0]);
        found
    }

    /// The shortest cycle through `start` inside component `component`. `previous` is scratch
    /// space shared between calls (each call touches only its own component's entries).
    fn shortest_cycle(
        &self,
        start: usize,
        component: usize,
        components: &Components,
        previous: &mut [usize],
    ) -> Vec<usize> {
        let mut queue = VecDeque::from([start]);
        previous[start] = start;
        while let Some(node) = queue.pop_front() {
            for &to in &self.edges[node] {
                if to == start {
                    let mut path = vec![node];
                    let mut at = node;
                    while at != start {
                        at = previous[at];
                        path.push(at);
                    }
                    path.reverse();
                    return path;
                }
                if components.of[to] == component && previous[to] == usize::MAX {
                    previous[to] = node;
                    queue.push_back(to);
                }
            }
        }
        // A cyclic component always has a cycle through each of its nodes.
        unreachable!("node {start} of a cyclic component lies on no cycle")
    }

    /// A topological order of the nodes (prerequisites first when edges point from a guarded
    /// node to its prerequisites), skipping nodes on or behind a cycle. Ties keep written order.
    pub fn dependency_order(&self) -> Vec<usize> {
        let n = self.edges.len();
        let mut remaining: Vec<usize> = vec![0; n];
        let mut dependents: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (from, tos) in self.edges.iter().enumerate() {
            let mut seen = std::collections::HashSet::new();
            for &to in tos {
                if seen.insert(to) {
                    remaining[from] += 1;
                    dependents[to].push(from);
                }
            }
        }
        let mut ready: std::collections::BTreeSet<usize> =
            (0..n).filter(|&i| remaining[i] == 0).collect();
        let mut order = Vec::with_capacity(n);
        while let Some(node) = ready.pop_first() {
            order.push(node);
            for &dependent in &dependents[node] {
                remaining[dependent] -= 1;
                if remaining[dependent] == 0 {
                    ready.insert(dependent);
                }
            }
        }
        order
    }
}

/// Ancestors kept per node, so the ends of any loop can be read without walking it.
const KEPT: usize = 12;
const NONE: usize = usize::MAX;

/// For every node on a cycle, a closed walk through it, read hop by hop in O(1) near either end
/// (which is all a message shows), so reporting a loop on each of its n members costs O(n), not
/// O(n²). The walk of a node goes from it back to its component's earliest node (the root) by a
/// shortest path, then forward from the root to it by a shortest path; for a simple loop that is
/// the loop itself, seen from that node. The root's walk is the shortest cycle through it.
#[derive(Clone, Debug, Default)]
pub struct LoopsThrough {
    root: Vec<usize>,
    /// Shortest paths from the root.
    forward: PathTree,
    /// Shortest paths to the root.
    back: PathTree,
    /// Per root: the predecessor of the root closing its shortest cycle.
    closing: Vec<usize>,
}

impl LoopsThrough {
    pub fn new(graph: &Digraph, components: &Components) -> LoopsThrough {
        let n = graph.len();
        let mut reverse: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (from, tos) in graph.edges.iter().enumerate() {
            if components.on_cycle(from) {
                for &to in tos {
                    if components.of[to] == components.of[from] {
                        reverse[to].push(from);
                    }
                }
            }
        }
        let mut loops = LoopsThrough {
            root: vec![NONE; n],
            forward: PathTree::new(n),
            back: PathTree::new(n),
            closing: vec![NONE; n],
        };
        for (c, members) in components.members.iter().enumerate() {
            if !components.cyclic[c] {
                continue;
            }
            let root = members[0];
            let inside = |node: usize| components.of[node] == c;
            // Forward: shortest paths from the root.
            let mut queue = VecDeque::from([root]);
            loops.root[root] = root;
            loops.forward.ancestors[root][0] = root;
            while let Some(node) = queue.pop_front() {
                for &to in &graph.edges[node] {
                    if to == root && loops.closing[root] == NONE {
                        loops.closing[root] = node;
                    }
                    if inside(to) && loops.root[to] == NONE {
                        loops.root[to] = root;
                        loops.forward.reach(to, node);
                        queue.push_back(to);
                    }
                }
            }
            // Backward: shortest paths to the root.
            let mut queue = VecDeque::from([root]);
            loops.back.ancestors[root][0] = root;
            let mut reached = vec![root];
            loops.back.toward_root[root] = root;
            while let Some(node) = queue.pop_front() {
                for &from in &reverse[node] {
                    if loops.back.toward_root[from] == NONE {
                        loops.back.reach(from, node);
                        reached.push(from);
                        queue.push_back(from);
                    }
                }
            }
            debug_assert_eq!(reached.len(), members.len());
        }
        loops
    }

    /// Hops of the walk through `node` (a node on a cycle).
    pub fn hops(&self, node: usize) -> usize {
        let root = self.root[node];
        if node == root {
            self.forward.depth[self.closing[root]] + 1
        } else {
            self.back.depth[node] + self.forward.depth[node]
        }
    }

    /// The `i`-th node of the walk through `node` (`0` and `hops(node)` are `node` itself).
    pub fn node_at(&self, node: usize, i: usize) -> usize {
        let root = self.root[node];
        if node == root {
            let hops = self.hops(node);
            return if i >= hops {
                root
            } else {
                self.forward.at(self.closing[root], i)
            };
        }
        let back = self.back.depth[node];
        if i <= back {
            self.back.at(node, back - i)
        } else {
            self.forward.at(node, i - back)
        }
    }
}

/// One tree of shortest paths between a component's root and its nodes (from the root or to
/// it): for each node its next node toward the root, its distance from the root, and the first
/// `KEPT` nodes of its path counted from the root.
#[derive(Clone, Debug, Default)]
struct PathTree {
    toward_root: Vec<usize>,
    depth: Vec<usize>,
    ancestors: Vec<[usize; KEPT]>,
}

impl PathTree {
    fn new(n: usize) -> PathTree {
        PathTree {
            toward_root: vec![NONE; n],
            depth: vec![0; n],
            ancestors: vec![[NONE; KEPT]; n],
        }
    }

    /// Records `node` as reached one hop past `previous`, which is already in the tree.
    fn reach(&mut self, node: usize, previous: usize) {
        self.toward_root[node] = previous;
        self.depth[node] = self.depth[previous] + 1;
        let mut ancestors = self.ancestors[previous];
        if self.depth[node] < KEPT {
            ancestors[self.depth[node]] = node;
        }
        self.ancestors[node] = ancestors;
    }

    /// The node `depth` hops from the root on the path of `node`.
    fn at(&self, node: usize, depth: usize) -> usize {
        if depth < KEPT {
            return self.ancestors[node][depth];
        }
        let mut at = node;
        for _ in depth..self.depth[node] {
            at = self.toward_root[at];
        }
        at
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn graph(n: usize, edges: &[(usize, usize)]) -> Digraph {
        let mut g = Digraph::new(n);
        for &(a, b) in edges {
            g.add_edge(a, b);
        }
        g
    }

    #[test]
    fn each_tangle_once_from_its_earliest_node() {
        // 1 ⇄ 2 ⇄ 3 is one component: one cycle, through 1.
        let g = graph(4, &[(1, 2), (2, 1), (0, 1), (2, 3), (3, 2)]);
        assert_eq!(g.cycles(), vec![vec![1, 2]]);
        let c = g.components();
        let on: Vec<bool> = (0..4).map(|n| c.on_cycle(n)).collect();
        assert_eq!(on, vec![false, true, true, true]);
    }

    #[test]
    fn separate_loops_are_separate_cycles() {
        let g = graph(5, &[(0, 1), (1, 0), (2, 3), (3, 4), (4, 2)]);
        assert_eq!(g.cycles(), vec![vec![0, 1], vec![2, 3, 4]]);
    }

    #[test]
    fn self_loop_is_a_cycle() {
        let g = graph(2, &[(0, 1), (1, 1)]);
        assert_eq!(g.cycles(), vec![vec![1]]);
    }

    #[test]
    fn the_cycle_shown_is_a_shortest_one() {
        // 0 → 1 → 2 → 3 → 0 and the shortcut 0 → 3.
        let g = graph(4, &[(0, 1), (1, 2), (2, 3), (3, 0), (0, 3)]);
        assert_eq!(g.cycles(), vec![vec![0, 3]]);
    }

    #[test]
    fn components_come_prerequisites_first() {
        // 0 requires 1, 1 requires 2; 3 ⇄ 4, 4 requires 0.
        let g = graph(5, &[(0, 1), (1, 2), (3, 4), (4, 3), (4, 0)]);
        let c = g.components();
        let position = |node: usize| c.of[node];
        assert!(position(2) < position(1) && position(1) < position(0));
        assert!(position(0) < position(3));
        assert_eq!(c.of[3], c.of[4]);
    }

    #[test]
    fn long_chain_ending_in_a_cycle_needs_no_deep_stack() {
        // Deeper than any native stack would take recursively, run on a small thread stack.
        let n = 200_000;
        let handle = std::thread::Builder::new()
            .stack_size(64 * 1024)
            .spawn(move || {
                let mut g = Digraph::new(n);
                for i in 0..n - 1 {
                    g.add_edge(i, i + 1);
                }
                g.add_edge(n - 1, n - 2);
                g.cycles()
            })
            .expect("thread");
        assert_eq!(
            handle.join().expect("no overflow"),
            vec![vec![n - 2, n - 1]]
        );
    }

    #[test]
    fn ladder_hides_no_cycle() {
        // A 16-layer ladder, two nodes wide, every node of a layer pointing at both of the next
        // (2^16 paths), ending in a loop back to the layer before last.
        let layers = 16;
        let mut g = Digraph::new(2 * layers);
        for layer in 0..layers - 1 {
            for a in 0..2 {
                for b in 0..2 {
                    g.add_edge(2 * layer + a, 2 * (layer + 1) + b);
                }
            }
        }
        let last = 2 * (layers - 1);
        g.add_edge(last, last - 2);
        let cycles = g.cycles();
        assert_eq!(cycles, vec![vec![last - 2, last]]);
    }

    #[test]
    fn same_partition_as_petgraph() {
        // Petgraph's Kosaraju (also iterative) is the oracle.
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15);
        for _ in 0..200 {
            let n = 1 + next(30);
            let edges: Vec<(usize, usize)> =
                (0..next(3 * n + 1)).map(|_| (next(n), next(n))).collect();
            assert_agrees_with_petgraph(n, &edges);
        }
    }

    /// A small deterministic generator (xorshift64) of numbers below `bound`, so the random
    /// graphs are the same on every run.
    fn xorshift(mut seed: u64) -> impl FnMut(usize) -> usize {
        move |bound| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % bound as u64) as usize
        }
    }

    /// Compares our components with petgraph's Kosaraju (an independent, also iterative,
    /// algorithm) on one graph, and our cycles with its components: one loop per cyclic
    /// component, closed, following edges, inside that component.
    #[track_caller]
    fn assert_agrees_with_petgraph(n: usize, edges: &[(usize, usize)]) {
        let g = graph(n, edges);
        let ours = g.components();
        let mut theirs = petgraph::graph::DiGraph::<(), ()>::new();
        let ids: Vec<_> = (0..n).map(|_| theirs.add_node(())).collect();
        for &(a, b) in edges {
            theirs.add_edge(ids[a], ids[b], ());
        }
        let mut expected: Vec<Vec<usize>> = petgraph::algo::kosaraju_scc(&theirs)
            .into_iter()
            .map(|c| {
                let mut nodes: Vec<usize> = c.into_iter().map(|i| i.index()).collect();
                nodes.sort_unstable();
                nodes
            })
            .collect();
        expected.sort();
        let mut got = ours.members.clone();
        got.sort();
        assert_eq!(got, expected, "{n} nodes, {} edges", edges.len());
        // Dependency order: every edge goes to the same or an earlier component.
        for &(a, b) in edges {
            assert!(ours.of[b] <= ours.of[a]);
        }
        let self_loops: std::collections::HashSet<usize> = edges
            .iter()
            .filter(|(a, b)| a == b)
            .map(|&(a, _)| a)
            .collect();
        let cyclic_components = expected
            .iter()
            .filter(|c| c.len() > 1 || self_loops.contains(&c[0]))
            .count();
        let cycles = g.cycles_of(&ours);
        assert_eq!(cycles.len(), cyclic_components);
        for cycle in &cycles {
            let component = ours.of[cycle[0]];
            for (i, &a) in cycle.iter().enumerate() {
                let b = cycle[(i + 1) % cycle.len()];
                assert!(g.edges[a].contains(&b), "{a} → {b} is not an edge");
                assert_eq!(ours.of[a], component, "the loop leaves its component");
            }
        }
    }

    #[test]
    fn same_partition_as_petgraph_on_large_graphs() {
        let n = 20_000;
        let chain: Vec<(usize, usize)> = (1..n).map(|i| (i - 1, i)).collect();
        assert_agrees_with_petgraph(n, &chain);
        let mut ring = chain.clone();
        ring.push((n - 1, 0));
        assert_agrees_with_petgraph(n, &ring);
        // A chain folded back every hundred nodes: two hundred tangles in a row, and the
        // reverse chain (each node pointing at the one before).
        let mut folded = chain.clone();
        folded.extend((0..n / 100).map(|k| (100 * k + 99, 100 * k)));
        assert_agrees_with_petgraph(n, &folded);
        let reversed: Vec<(usize, usize)> = (1..n).map(|i| (i, i - 1)).collect();
        assert_agrees_with_petgraph(n, &reversed);
        // Random graphs, sparse and denser, with self loops and repeated edges.
        let mut next = xorshift(0x2545_f491_4f6c_dd1d);
        for per_node in [1, 2, 3] {
            let edges: Vec<(usize, usize)> =
                (0..per_node * n).map(|_| (next(n), next(n))).collect();
            assert_agrees_with_petgraph(n, &edges);
        }
    }

    #[test]
    fn every_member_sees_its_loop() {
        // A ring of 40: each member's walk is the ring from its own point of view.
        let n = 40;
        let edges: Vec<(usize, usize)> = (0..n).map(|i| (i, (i + 1) % n)).collect();
        let g = graph(n, &edges);
        let c = g.components();
        let loops = LoopsThrough::new(&g, &c);
        for v in 0..n {
            assert_eq!(loops.hops(v), n);
            let walk: Vec<usize> = (0..=n).map(|i| loops.node_at(v, i)).collect();
            let expected: Vec<usize> = (0..=n).map(|i| (v + i) % n).collect();
            assert_eq!(walk, expected, "from {v}");
        }
    }

    #[test]
    fn walks_in_a_tangle_are_closed_and_follow_edges() {
        let g = graph(5, &[(0, 1), (1, 2), (2, 0), (1, 3), (3, 4), (4, 1), (4, 4)]);
        let c = g.components();
        let loops = LoopsThrough::new(&g, &c);
        for v in 0..5 {
            let hops = loops.hops(v);
            assert_eq!(loops.node_at(v, 0), v);
            assert_eq!(loops.node_at(v, hops), v);
            for i in 0..hops {
                let (a, b) = (loops.node_at(v, i), loops.node_at(v, i + 1));
                assert!(g.edges[a].contains(&b), "{v}: hop {i} {a} → {b}");
            }
        }
        assert_eq!(loops.hops(0), 3);
    }

    #[test]
    fn order_puts_prerequisites_first() {
        let g = graph(3, &[(0, 1), (1, 2)]);
        assert_eq!(g.dependency_order(), vec![2, 1, 0]);
    }
}
