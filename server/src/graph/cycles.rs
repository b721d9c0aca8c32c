//! Elementary cycles of a small directed graph, each found once, starting from its earliest node
//! (nodes are numbered in the order they are written, so "earliest" is "first in the file").

/// A directed graph over nodes `0..n`, with edges in the order they were written.
#[derive(Clone, Debug, Default)]
pub struct Digraph {
    pub edges: Vec<Vec<usize>>,
}

/// At most this many cycles are listed per graph: past it the graph is a tangle and more paths
/// help nobody.
pub const MAX_CYCLES: usize = 64;
/// The search gives up after this many steps, so a pathological graph costs bounded time.
const MAX_STEPS: usize = 200_000;

impl Digraph {
    pub fn new(nodes: usize) -> Self {
        Digraph {
            edges: vec![Vec::new(); nodes],
        }
    }

    pub fn add_edge(&mut self, from: usize, to: usize) {
        if !self.edges[from].contains(&to) {
            self.edges[from].push(to);
        }
    }

    /// Every elementary cycle as a node path `[a, b, ..., a]` without repeating the first node at
    /// the end. Each cycle starts at its smallest node, so it is found exactly once.
    pub fn cycles(&self) -> Vec<Vec<usize>> {
        let mut found = Vec::new();
        let mut steps = 0usize;
        for start in 0..self.edges.len() {
            let mut path = vec![start];
            let mut on_path = vec![false; self.edges.len()];
            on_path[start] = true;
            // Iterative DFS: a stack of (node, next edge to try).
            let mut stack = vec![(start, 0usize)];
            while let Some(&mut (node, ref mut next)) = stack.last_mut() {
                steps += 1;
                if found.len() >= MAX_CYCLES || steps > MAX_STEPS {
                    return found;
                }
                if let Some(&to) = self.edges[node].get(*next) {
                    *next += 1;
                    if to == start {
                        found.push(path.clone());
                    } else if to > start && !on_path[to] {
                        on_path[to] = true;
                        path.push(to);
                        stack.push((to, 0));
                    }
                } else {
                    stack.pop();
                    on_path[node] = false;
                    path.pop();
                }
            }
        }
        found
    }

    /// Nodes that lie on some cycle.
    pub fn on_cycle(&self) -> Vec<bool> {
        let mut on = vec![false; self.edges.len()];
        for cycle in self.cycles() {
            for node in cycle {
                on[node] = true;
            }
        }
        on
    }

    /// A topological order of the nodes (prerequisites first when edges point from a guarded
    /// node to its prerequisites), skipping nodes on or behind a cycle. Ties keep written order.
    pub fn dependency_order(&self) -> Vec<usize> {
        let n = self.edges.len();
        let mut remaining: Vec<usize> = self.edges.iter().map(Vec::len).collect();
        let mut dependents: Vec<Vec<usize>> = vec![Vec::new(); n];
        for (from, tos) in self.edges.iter().enumerate() {
            for &to in tos {
                dependents[to].push(from);
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_cycle_once_from_its_earliest_node() {
        let mut g = Digraph::new(4);
        g.add_edge(1, 2);
        g.add_edge(2, 1);
        g.add_edge(0, 1);
        g.add_edge(2, 3);
        g.add_edge(3, 2);
        assert_eq!(g.cycles(), vec![vec![1, 2], vec![2, 3]]);
        assert_eq!(g.on_cycle(), vec![false, true, true, true]);
    }

    #[test]
    fn self_loop_is_a_cycle() {
        let mut g = Digraph::new(1);
        g.add_edge(0, 0);
        assert_eq!(g.cycles(), vec![vec![0]]);
    }

    #[test]
    fn order_puts_prerequisites_first() {
        // 0 requires 1, 1 requires 2.
        let mut g = Digraph::new(3);
        g.add_edge(0, 1);
        g.add_edge(1, 2);
        assert_eq!(g.dependency_order(), vec![2, 1, 0]);
    }

    #[test]
    fn dense_graph_is_capped() {
        let n = 12;
        let mut g = Digraph::new(n);
        for a in 0..n {
            for b in 0..n {
                if a != b {
                    g.add_edge(a, b);
                }
            }
        }
        assert_eq!(g.cycles().len(), MAX_CYCLES);
    }
}
