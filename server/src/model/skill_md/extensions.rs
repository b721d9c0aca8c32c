//! The proposed SKILL.md extensions as typed values with spans: `dependencies`
//! (seeds/skill-md-dependencies-proposal.txt), `metadata.chain` and its options
//! (seeds/skill-chaining-proposal.txt), and the skill gate's `metadata.precondition` and
//! `metadata.action_tool` (seeds/symfonic-skill-gate.txt).
//!
//! Lowering never fails and judges nothing: a value of the wrong type is kept with its type and
//! range, so the rules report exactly what is written, where it is written, and every later
//! reader (cross-file rules, hover, go to definition, the ordering graph) works from these values
//! rather than from the YAML tree. Each level is read once, without recursion: a list inside a
//! precondition list is kept as a list and not read further (the rule reports it), and nothing
//! below the levels the proposals define is visited, so a deep or wide value costs what its
//! read levels hold.
//!
//! The tables ([`CHAIN_OPTIONS`], [`PRECONDITION_OPS`], ...) are the one place the allowed keys and
//! values are listed, with what each means: the rules check against them, and the hover and
//! completion show their docs.

use std::hash::{Hash, Hasher};

use crate::model::{Spanned, SpannedStr};
use crate::syntax::{Node, NodeKind, ScalarValue, TextRange};

/// What a YAML value is, as the extension rules judge it (the YAML 1.2 core schema).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Shape {
    Null,
    Bool(bool),
    Int(i64),
    Float,
    Str,
    List,
    Mapping,
}

/// One YAML value (a key or a value): its shape, its range and, for a scalar, its text.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Value {
    /// Where it is used (an alias is judged where it stands).
    pub range: TextRange,
    pub shape: Shape,
    /// The scalar as written, whatever its type (`42` gives "42"); `None` for a collection.
    pub text: Option<String>,
}

impl Value {
    pub fn of(node: Node<'_>) -> Value {
        let shape = match node.value() {
            ScalarValue::Null => Shape::Null,
            ScalarValue::Bool(b) => Shape::Bool(b),
            ScalarValue::Int(i) => Shape::Int(i),
            ScalarValue::Float(_) => Shape::Float,
            ScalarValue::Str(_) => Shape::Str,
            ScalarValue::NotScalar => match node.kind() {
                NodeKind::Sequence(_) => Shape::List,
                _ => Shape::Mapping,
            },
        };
        Value {
            range: node.range(),
            shape,
            text: node.scalar().map(str::to_owned),
        }
    }

    /// A short name of the YAML type, for messages ("a list", "an integer").
    pub fn type_name(&self) -> &'static str {
        match self.shape {
            Shape::Null => "null",
            Shape::Bool(_) => "boolean",
            Shape::Int(_) => "integer",
            Shape::Float => "number",
            Shape::Str => "string",
            Shape::List => "list",
            Shape::Mapping => "mapping",
        }
    }

    /// The text when the value is a YAML string (not a number, boolean or null).
    pub fn as_str(&self) -> Option<&str> {
        match self.shape {
            Shape::Str => self.text.as_deref(),
            _ => None,
        }
    }

    /// The scalar as written, whatever its type.
    pub fn scalar(&self) -> Option<&str> {
        self.text.as_deref()
    }

    pub fn is_null(&self) -> bool {
        self.shape == Shape::Null
    }

    pub fn is_list(&self) -> bool {
        self.shape == Shape::List
    }

    pub fn is_mapping(&self) -> bool {
        self.shape == Shape::Mapping
    }
}

/// Every extension a SKILL.md's frontmatter writes; `None` for one it does not write.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Extensions {
    pub dependencies: Option<Dependencies>,
    /// `metadata.chain` with the options beside it (when `metadata` is a mapping).
    pub chain: Option<Chain>,
    /// `metadata.precondition`.
    pub precondition: Option<Predicate>,
    /// `metadata.action_tool`.
    pub action_tool: Option<Value>,
    /// `metadata.precondition` is written as a string (`super::portable`).
    pub precondition_portable: bool,
}

impl Extensions {
    /// Lowers the extensions of a frontmatter mapping.
    pub fn lower(root: Node<'_>) -> Extensions {
        let mut extensions = Extensions::default();
        if !root.is_mapping() {
            return extensions;
        }
        if let Some((key, value)) = root.entry("dependencies") {
            extensions.dependencies = Some(Dependencies::lower(key, value));
        }
        let Some(metadata) = root.get("metadata").filter(|m| m.is_mapping()) else {
            return extensions;
        };
        if let Some((key, list)) = metadata.entry("chain") {
            extensions.chain = Some(Chain::lower(key, list, metadata));
        }
        extensions.precondition = metadata.get("precondition").map(Predicate::lower);
        extensions.action_tool = metadata.get("action_tool").map(Value::of);
        extensions
    }

    /// The chain when it is a list: the one the cross-file half resolves.
    pub fn chain_list(&self) -> Option<&Chain> {
        self.chain.as_ref().filter(|chain| chain.value.is_list())
    }
}

// ---------------------------------------------------------------------------------------------
// dependencies

/// `dependencies:`: its key, its value, and (when the value is a mapping) one entry per type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dependencies {
    pub key: TextRange,
    pub value: Value,
    pub types: Vec<DependencyType>,
    /// Written as a string under `metadata` (`super::portable`), not at the top level.
    pub portable: bool,
}

/// One entry of `dependencies` (`tools: [...]`, `tools: {all: [...], any: [...]}`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DependencyType {
    pub key: Value,
    pub value: Value,
    /// The items, when the value is a list (shorthand for `all`).
    pub items: Vec<Value>,
    /// The groups, when the value is a mapping.
    pub groups: Vec<Group>,
}

/// `all:` or `any:` (or a key that is neither, kept so the rule can name it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Group {
    pub key: Value,
    pub value: Value,
    /// The items, when the value is a list.
    pub items: Vec<Value>,
}

impl Dependencies {
    fn lower(key: Node<'_>, value: Node<'_>) -> Dependencies {
        let types = value
            .entries()
            .map(|(kind, value)| DependencyType {
                key: Value::of(kind),
                value: Value::of(value),
                items: value.items().map(Value::of).collect(),
                groups: value
                    .entries()
                    .map(|(group, members)| Group {
                        key: Value::of(group),
                        value: Value::of(members),
                        items: members.items().map(Value::of).collect(),
                    })
                    .collect(),
            })
            .collect();
        Dependencies {
            key: key.range(),
            value: Value::of(value),
            types,
            portable: false,
        }
    }

    /// The tool names the skill declares, each with whether it is in an `any` group: what
    /// completion and the hover read (`tools: [..]` reads as `all`).
    pub fn tools(&self) -> impl Iterator<Item = &DependencyType> {
        self.types
            .iter()
            .filter(|t| t.key.scalar() == Some("tools"))
    }
}

impl DependencyType {
    /// Every list of names under this type, with the group it belongs to (`all` for a plain
    /// list).
    pub fn lists(&self) -> Vec<(&str, &[Value])> {
        if self.value.is_list() {
            return vec![("all", self.items.as_slice())];
        }
        self.groups
            .iter()
            .filter_map(|g| Some((g.key.scalar()?, g.items.as_slice())))
            .collect()
    }
}

/// A documented value of a key: what the rules accept, the hover explains and completion offers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EnumValue {
    pub value: &'static str,
    pub doc: &'static str,
}

const fn value(value: &'static str, doc: &'static str) -> EnumValue {
    EnumValue { value, doc }
}

/// The types under `dependencies`.
pub const DEPENDENCY_TYPES: &[EnumValue] = &[
    value(
        "tools",
        "tools the skill calls; checked against the tool inventory when one is configured",
    ),
    value("resources", "resources the skill reads (not evaluated)"),
    value("prompts", "prompts the skill uses (not evaluated)"),
];

/// The keys of a dependency type written as a mapping.
pub const DEPENDENCY_GROUPS: &[EnumValue] = &[
    value("all", "every one of these is needed"),
    value("any", "at least one of these is needed"),
];

// ---------------------------------------------------------------------------------------------
// metadata.chain

/// The type of a chain option's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionType {
    Bool,
    /// A whole number of at least `min`.
    Int {
        min: i64,
    },
    Enum(&'static [EnumValue]),
}

/// One chain option: its key, its type, its default as the proposal gives it, and what it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ChainOption {
    pub key: &'static str,
    pub kind: OptionType,
    pub default: &'static str,
    pub doc: &'static str,
}

const fn option(
    key: &'static str,
    kind: OptionType,
    default: &'static str,
    doc: &'static str,
) -> ChainOption {
    ChainOption {
        key,
        kind,
        default,
        doc,
    }
}

/// `early_exit_on`'s values.
pub const EARLY_EXIT_ON: &[EnumValue] = &[
    value("none", "run every skill of the chain (default)"),
    value("failure", "stop at the first skill that fails"),
    value("success", "stop at the first skill that succeeds"),
    value("critical", "stop only on a critical failure"),
];

/// `retry_until`'s values.
pub const RETRY_UNTIL: &[EnumValue] = &[
    value("none", "no condition: retry `retry_count` times"),
    value("stable", "retry until the result stops changing"),
    value("success", "retry until the chain succeeds"),
];

/// The values of a boolean option, as completion offers them.
pub const BOOLEAN: &[EnumValue] = &[value("true", "boolean"), value("false", "boolean")];

/// The options a chain takes beside `chain` under `metadata` (the proposal's table).
pub const CHAIN_OPTIONS: &[ChainOption] = &[
    option(
        "async",
        OptionType::Bool,
        "false",
        "run the chain's skills in parallel instead of one after another",
    ),
    option(
        "continue_on_error",
        OptionType::Bool,
        "true",
        "go on with the next skill when one fails",
    ),
    option(
        "timeout",
        OptionType::Int { min: 0 },
        "0",
        "the longest a skill may run, per skill; 0 means no limit",
    ),
    option(
        "max_depth",
        OptionType::Int { min: 1 },
        "10",
        "how deep chains calling chains may nest; the runtime stops there",
    ),
    option(
        "parallel_limit",
        OptionType::Int { min: 1 },
        "5",
        "how many skills run at once; only with `async: true`",
    ),
    option(
        "validate_on_load",
        OptionType::Bool,
        "true",
        "refuse the chain when it loads if an entry names no skill",
    ),
    option(
        "cleanup_after",
        OptionType::Bool,
        "false",
        "reset the state once the chain has finished",
    ),
    option(
        "early_exit_on",
        OptionType::Enum(EARLY_EXIT_ON),
        "none",
        "which outcome of a skill ends the chain early",
    ),
    option(
        "continue_on_success",
        OptionType::Bool,
        "false",
        "go on only while the previous skill succeeded",
    ),
    option(
        "pass_state",
        OptionType::Bool,
        "true",
        "hand each skill's outputs to the next one",
    ),
    option(
        "retry_count",
        OptionType::Int { min: 0 },
        "1",
        "how many times the whole chain runs",
    ),
    option(
        "retry_until",
        OptionType::Enum(RETRY_UNTIL),
        "none",
        "the condition that stops the repeats",
    ),
    option(
        "race_mode",
        OptionType::Bool,
        "false",
        "the first skill to finish wins; only with `async: true`",
    ),
];

/// The chain option called `key`.
pub fn chain_option(key: &str) -> Option<&'static ChainOption> {
    CHAIN_OPTIONS.iter().find(|o| o.key == key)
}

impl ChainOption {
    /// The values completion offers for it (booleans and enums; a number has none).
    pub fn values(&self) -> &'static [EnumValue] {
        match self.kind {
            OptionType::Bool => BOOLEAN,
            OptionType::Enum(values) => values,
            OptionType::Int { .. } => &[],
        }
    }

    /// Its type in words, for docs and hovers.
    pub fn type_text(&self) -> String {
        match self.kind {
            OptionType::Bool => "`true` or `false`".to_owned(),
            OptionType::Int { min } => format!("a whole number of at least {min}"),
            OptionType::Enum(values) => values
                .iter()
                .map(|v| format!("`{}`", v.value))
                .collect::<Vec<_>>()
                .join(", "),
        }
    }

    /// Markdown: what it does, its type and default.
    pub fn documentation(&self) -> String {
        format!(
            "Chain option: {}. Takes {}; default `{}`.",
            self.doc,
            self.type_text(),
            self.default
        )
    }
}

/// The default `max_depth`.
pub const DEFAULT_MAX_DEPTH: i64 = 10;

/// `metadata.chain` and the options written beside it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chain {
    pub key: TextRange,
    pub value: Value,
    /// Every item, when the value is a list.
    pub items: Vec<Value>,
    /// The items that name a skill (non-empty strings), in order: what resolves. Indices into
    /// this list number a chain's steps.
    pub entries: Vec<SpannedStr>,
    /// The options set under `metadata`, in the order written.
    pub options: Vec<OptionSetting>,
    /// Written as a string (`super::portable`): its options' string values are read by type.
    pub portable: bool,
}

/// One chain option as written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionSetting {
    pub option: &'static ChainOption,
    pub key: TextRange,
    pub value: Value,
}

impl Chain {
    fn lower(key: Node<'_>, list: Node<'_>, metadata: Node<'_>) -> Chain {
        let items: Vec<Value> = list.items().map(Value::of).collect();
        let entries = entries_of(&items);
        let options = metadata
            .entries()
            .filter_map(|(key, value)| {
                Some(OptionSetting {
                    option: chain_option(key.scalar()?)?,
                    key: key.range(),
                    value: Value::of(value),
                })
            })
            .collect();
        Chain {
            key: key.range(),
            value: Value::of(list),
            items,
            entries,
            options,
            portable: false,
        }
    }

    /// The value of the option `key`, when it is set.
    pub fn option(&self, key: &str) -> Option<&Value> {
        self.options
            .iter()
            .find(|o| o.option.key == key)
            .map(|o| &o.value)
    }

    fn bool_option(&self, key: &str) -> Option<bool> {
        match self.option(key)?.shape {
            Shape::Bool(b) => Some(b),
            _ => None,
        }
    }

    /// `async: true`: the chain's skills run in parallel rather than in order.
    pub fn runs_async(&self) -> bool {
        self.bool_option("async").unwrap_or(false)
    }

    /// `validate_on_load` (default true): an unknown entry refuses the chain when it loads.
    pub fn validates_on_load(&self) -> bool {
        self.bool_option("validate_on_load").unwrap_or(true)
    }

    /// `max_depth`, or its default when it is missing or not a whole number of at least 1.
    pub fn max_depth(&self) -> i64 {
        match self.option("max_depth").map(|v| v.shape) {
            Some(Shape::Int(i)) if i >= 1 => i,
            _ => DEFAULT_MAX_DEPTH,
        }
    }
}

/// The items that name a skill (non-empty strings), in order.
pub fn entries_of(items: &[Value]) -> Vec<SpannedStr> {
    items
        .iter()
        .filter_map(|item| {
            let entry = item.as_str().filter(|s| !s.trim().is_empty())?;
            Some(Spanned::new(entry.to_owned(), item.range))
        })
        .collect()
}

/// A fingerprint of a chain's entries, for the index: with their ranges (what other files'
/// diagnostics point at), or without (what the chain graph is built from, so a keystroke that
/// only moves the entries does not rebuild the graph).
pub fn chain_fingerprint(chain: Option<&Chain>, with_ranges: bool) -> u64 {
    let mut hasher = std::hash::DefaultHasher::new();
    if let Some(chain) = chain.filter(|c| c.value.is_list()) {
        for entry in &chain.entries {
            entry.value.hash(&mut hasher);
            if with_ranges {
                entry.range.hash(&mut hasher);
            }
        }
    }
    hasher.finish()
}

// ---------------------------------------------------------------------------------------------
// metadata.precondition and metadata.action_tool

/// The operators of a `state` predicate.
pub const PRECONDITION_OPS: &[EnumValue] = &[
    value("eq", "the state at `path` equals `value`"),
    value("neq", "the state at `path` differs from `value`"),
    value("in", "the state at `path` is one of the list `value`"),
    value("exists", "the state at `path` is set (takes no `value`)"),
];

/// The keys of a predicate written as a mapping.
pub const PREDICATE_KEYS: &[EnumValue] = &[
    value("tool", "holds once this tool has been called"),
    value(
        "state",
        "holds when the turn's state matches (`path`, `op`, `value`)",
    ),
];

/// The keys of a `state` predicate.
pub const STATE_KEYS: &[EnumValue] = &[
    value(
        "path",
        "the state to test, as dotted identifiers (`order.status`)",
    ),
    value("op", "how to compare: `eq`, `neq`, `in` or `exists`"),
    value(
        "value",
        "what to compare with (a list for `in`; none for `exists`)",
    ),
];

/// A precondition, or one predicate of a precondition list.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Predicate {
    /// A scalar: a tool (`get_order`, `get_x(id=1)`), free text, or a value of another type.
    Scalar(Value),
    /// A list. Only a precondition's own list has its items read: a list inside it is kept as
    /// it is (the rule reports it), with no items.
    List {
        value: Value,
        items: Vec<Predicate>,
    },
    Mapping(Box<PredicateMap>),
}

/// A predicate written as a mapping (`{tool: NAME}`, `{state: {...}}`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PredicateMap {
    pub value: Value,
    /// Every key, in order.
    pub keys: Vec<Value>,
    /// `tool:` as (key, value).
    pub tool: Option<(Value, Value)>,
    /// `state:` as (key, state).
    pub state: Option<(Value, State)>,
}

/// `state: {path, op, value}`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    pub value: Value,
    /// Every key, in order (when the state is a mapping).
    pub keys: Vec<Value>,
    pub path: Option<Value>,
    pub op: Option<Value>,
    /// `value:` as (key, value).
    pub compared: Option<(Value, Value)>,
    /// The items of `value:` when it is a list (what `in` compares with).
    pub compared_items: Vec<Value>,
}

impl Predicate {
    fn lower(node: Node<'_>) -> Predicate {
        match node.kind() {
            NodeKind::Sequence(_) => Predicate::List {
                value: Value::of(node),
                items: node.items().map(Predicate::lower_item).collect(),
            },
            _ => Predicate::lower_item(node),
        }
    }

    /// A predicate inside a list, or a precondition that is not a list.
    fn lower_item(node: Node<'_>) -> Predicate {
        match node.kind() {
            NodeKind::Sequence(_) => Predicate::List {
                value: Value::of(node),
                items: Vec::new(),
            },
            NodeKind::Mapping(_) => Predicate::Mapping(Box::new(PredicateMap {
                value: Value::of(node),
                keys: node.entries().map(|(k, _)| Value::of(k)).collect(),
                tool: node
                    .entry("tool")
                    .map(|(k, v)| (Value::of(k), Value::of(v))),
                state: node.entry("state").map(|(k, state)| {
                    (
                        Value::of(k),
                        State {
                            value: Value::of(state),
                            keys: state.entries().map(|(k, _)| Value::of(k)).collect(),
                            path: state.get("path").map(Value::of),
                            op: state.get("op").map(Value::of),
                            compared: state
                                .entry("value")
                                .map(|(k, v)| (Value::of(k), Value::of(v))),
                            compared_items: state
                                .get("value")
                                .map(|v| v.items().map(Value::of).collect())
                                .unwrap_or_default(),
                        },
                    )
                }),
            })),
            _ => Predicate::Scalar(Value::of(node)),
        }
    }

    pub fn value(&self) -> &Value {
        match self {
            Predicate::Scalar(value) | Predicate::List { value, .. } => value,
            Predicate::Mapping(map) => &map.value,
        }
    }

    /// The values that name a tool, or would if well formed (the scalars of the precondition,
    /// its list's scalars, and `tool:` values), in order: what the hover reads.
    pub fn tool_values(&self) -> Vec<&Value> {
        fn one(p: &Predicate) -> Option<&Value> {
            match p {
                Predicate::Scalar(value) => Some(value),
                Predicate::Mapping(map) => map.tool.as_ref().map(|(_, v)| v),
                Predicate::List { .. } => None,
            }
        }
        match self {
            Predicate::List { items, .. } => items.iter().filter_map(one).collect(),
            other => one(other).into_iter().collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::slice;
    use super::*;
    use crate::syntax::YamlDocument;

    fn lower(yaml: &str) -> Extensions {
        let doc = YamlDocument::parse(yaml, 0);
        Extensions::lower(doc.root().unwrap())
    }

    #[test]
    fn chain_entries_and_options_with_spans() {
        let text = "metadata:\n  chain: [unit, '', 3, e2e/smoke]\n  async: true\n  max_depth: \"4\"\n  author: me\n";
        let ext = lower(text);
        let chain = ext.chain_list().expect("a chain");
        assert_eq!(chain.items.len(), 4);
        assert_eq!(chain.items[2].shape, Shape::Int(3));
        let entries: Vec<&str> = chain.entries.iter().map(|e| e.value.as_str()).collect();
        assert_eq!(entries, ["unit", "e2e/smoke"]);
        assert_eq!(slice(text, chain.entries[1].range), "e2e/smoke");
        let keys: Vec<&str> = chain.options.iter().map(|o| o.option.key).collect();
        assert_eq!(keys, ["async", "max_depth"]);
        assert!(chain.runs_async());
        // A quoted number is a string, so the default applies.
        assert_eq!(chain.max_depth(), DEFAULT_MAX_DEPTH);
        assert_eq!(slice(text, chain.options[1].value.range), "\"4\"");
        assert!(chain.validates_on_load());
    }

    #[test]
    fn a_chain_that_is_not_a_list_is_kept_as_written() {
        let ext = lower("metadata:\n  chain: unit\n");
        let chain = ext.chain.as_ref().unwrap();
        assert_eq!(chain.value.as_str(), Some("unit"));
        assert!(ext.chain_list().is_none());
        assert!(lower("chain: [a]\n").chain.is_none());
        assert!(lower("metadata: [a]\n").chain.is_none());
    }

    #[test]
    fn dependencies_as_lists_and_groups() {
        let text = "dependencies:\n  tools:\n    all: [get_order]\n    any: [a, b]\n  prompts: [p]\n  nope: 1\n";
        let ext = lower(text);
        let deps = ext.dependencies.unwrap();
        assert_eq!(slice(text, deps.key), "dependencies");
        let kinds: Vec<_> = deps.types.iter().map(|t| t.key.scalar().unwrap()).collect();
        assert_eq!(kinds, ["tools", "prompts", "nope"]);
        let tools = deps.tools().next().unwrap();
        let lists: Vec<(&str, usize)> = tools.lists().iter().map(|(g, l)| (*g, l.len())).collect();
        assert_eq!(lists, [("all", 1), ("any", 2)]);
        assert_eq!(deps.types[1].lists()[0].0, "all");
        assert_eq!(deps.types[2].value.shape, Shape::Int(1));
    }

    #[test]
    fn preconditions_keep_their_shape() {
        let text = "metadata:\n  action_tool: refund\n  precondition:\n    - get_order(id=1)\n    - {tool: get_status}\n    - {state: {path: order.status, op: eq, value: paid}}\n    - [nested]\n";
        let ext = lower(text);
        assert_eq!(
            ext.action_tool.as_ref().and_then(Value::as_str),
            Some("refund")
        );
        let Some(Predicate::List { items, .. }) = &ext.precondition else {
            panic!("a list");
        };
        assert_eq!(items.len(), 4);
        let Predicate::Mapping(state) = &items[2] else {
            panic!("a mapping")
        };
        let (_, state) = state.state.as_ref().unwrap();
        assert_eq!(state.op.as_ref().and_then(Value::as_str), Some("eq"));
        assert_eq!(state.keys.len(), 3);
        assert!(matches!(&items[3], Predicate::List { items, .. } if items.is_empty()));
        let tools: Vec<_> = ext
            .precondition
            .as_ref()
            .unwrap()
            .tool_values()
            .into_iter()
            .filter_map(Value::as_str)
            .collect();
        assert_eq!(tools, ["get_order(id=1)", "get_status"]);
    }

    #[test]
    fn fingerprints_follow_entries_and_their_places() {
        let a = lower("metadata:\n  chain: [x, y]\n");
        let moved = lower("metadata:\n   chain: [x, y]\n");
        let other = lower("metadata:\n  chain: [x, z]\n");
        let fp = |e: &Extensions, r| chain_fingerprint(e.chain.as_ref(), r);
        assert_eq!(fp(&a, false), fp(&moved, false));
        assert_ne!(fp(&a, true), fp(&moved, true));
        assert_ne!(fp(&a, false), fp(&other, false));
    }

    #[test]
    fn the_tables_hold_every_option_once() {
        let mut keys: Vec<&str> = CHAIN_OPTIONS.iter().map(|o| o.key).collect();
        keys.sort_unstable();
        keys.dedup();
        assert_eq!(keys.len(), CHAIN_OPTIONS.len());
        assert_eq!(
            chain_option("early_exit_on").unwrap().values(),
            EARLY_EXIT_ON
        );
        assert!(chain_option("timeout").unwrap().values().is_empty());
        assert!(chain_option("chain").is_none());
    }

    #[test]
    fn a_long_chain_lowers_in_one_pass() {
        let mut text = String::from("metadata:\n  chain: [");
        for i in 0..200_000 {
            text.push_str(&format!("s{i}, "));
        }
        text.push_str("end]\n");
        let ext = lower(&text);
        assert_eq!(ext.chain_list().unwrap().entries.len(), 200_001);
    }
}
