//! Links of a SKILL.md into its own folder (`model::skill_links`), resolved against the files
//! discovery listed there (`Change::SkillFiles`, read through `Lookup::skill_files`, so a file
//! appearing or going re-checks the skill). Without a listing (a file checked on its own, an
//! editor buffer outside every root) nothing is said.

use std::cell::{OnceCell, RefCell};
use std::collections::{HashMap, HashSet};
use std::ffi::OsStr;
use std::path::{Component, Path, PathBuf};
use std::rc::Rc;

use super::rule_doc::RuleDoc;
use super::SkillMdScope;
use crate::diagnostic::{codes, Diagnostic};
use crate::index::classify::SKILL_MD;
use crate::model::skill_links::{Link, LinkBase};

pub const RULES: &[RuleDoc] = &[
    RuleDoc {
        code: codes::SKILLMD_BROKEN_LINK,
        summary: "A link or path of the SKILL.md points at no file in its skill folder.",
        explanation: "Skills point the model at their bundled files (`references/api.md`, `scripts/fill.py`, \
`assets/…`); a path that leads nowhere sends it looking for a file that is not there. Checked: relative Markdown \
links and images, reference definitions, a license file named by `license`, and paths after a host's \
placeholder for the skill's folder, `{baseDir}/…` or `${CLAUDE_SKILL_DIR}/…`, or for the plugin's root, \
`${CLAUDE_PLUGIN_ROOT}/…`, wherever they are written. Left alone: URLs, anchors, absolute paths, templates, and \
any other path in code (fenced blocks and inline spans), which is as often an example as a file. The message \
offers the nearest existing path (`reference/x.md` → `references/x.md`). Fix the path or add the file.",
    },
    RuleDoc {
        code: codes::SKILLMD_LINK_OUTSIDE,
        summary: "A link of the SKILL.md leaves its skill folder.",
        explanation: "A skill travels as its folder: hosts install, copy and upload the folder alone, so a \
`../shared/notes.md` that works in the repository is gone once the skill is installed. Copy the file into the \
skill's folder (for example `references/`) and link it there.",
    },
];

/// The files and folders of a listing, and each folder's entries (for suggestions). Built in one
/// pass over the listing; each suggestion then costs a search of one folder's sorted entries.
///
/// A skill folder's listing stops at the skill folders nested in it (each has its own, and its
/// `SKILL.md` stands for it here), so listings stay linear in the files however deep skills
/// nest; [`Listing::holds`] follows a path into them.
pub struct Listing<'a> {
    files: HashSet<&'a Path>,
    dirs: HashSet<PathBuf>,
    /// The nested skill folders: where a path may go on in another listing.
    nested: HashSet<&'a Path>,
    /// Each folder's entries, sorted and deduplicated.
    children: HashMap<PathBuf, Vec<String>>,
    /// The files of each name, made when a suggestion first needs them.
    by_name: OnceCell<HashMap<&'a OsStr, Vec<&'a Path>>>,
    all: &'a [PathBuf],
    /// The listings of nested skill folders (by absolute folder; `None`: not listed), made when
    /// a link first leads into one: ten thousand links into one nested skill build its listing
    /// once, not ten thousand times.
    nested_listings: RefCell<HashMap<PathBuf, Option<Rc<Listing<'a>>>>>,
}

impl<'a> Listing<'a> {
    pub fn new(files: &'a [PathBuf]) -> Listing<'a> {
        let mut listing = Listing {
            files: files.iter().map(PathBuf::as_path).collect(),
            dirs: HashSet::from([PathBuf::new()]),
            nested: files
                .iter()
                .filter(|f| f.file_name().is_some_and(|n| n == SKILL_MD))
                .filter_map(|f| f.parent())
                .filter(|dir| !dir.as_os_str().is_empty())
                .collect(),
            children: HashMap::new(),
            by_name: OnceCell::new(),
            all: files,
            nested_listings: RefCell::default(),
        };
        for file in files {
            let mut child = file.as_path();
            while let Some(parent) = child.parent() {
                let name = child
                    .file_name()
                    .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
                listing
                    .children
                    .entry(parent.to_owned())
                    .or_default()
                    .push(name);
                if !listing.dirs.insert(parent.to_owned()) {
                    break; // its ancestors are in already
                }
                child = parent;
            }
        }
        for entries in listing.children.values_mut() {
            entries.sort_unstable();
            entries.dedup();
        }
        listing
    }

    fn exists(&self, path: &Path) -> bool {
        self.files.contains(path) || self.dirs.contains(path)
    }

    /// The skill folder nested in this listing's that `path` leads into, and the path relative
    /// to it (only the nested folders right below are in a listing, so at most one matches).
    fn step_into_nested(&self, dir: &Path, path: &Path) -> Option<(PathBuf, PathBuf)> {
        let skill = path.ancestors().skip(1).find(|a| self.nested.contains(a))?;
        Some((dir.join(skill), path.strip_prefix(skill).ok()?.to_owned()))
    }

    /// Whether the skill folder `dir` holds `path` (relative to it): in this listing, or inside
    /// a nested skill folder, in its listing (`listing_of`, by absolute folder), and so on down.
    pub fn holds(
        &self,
        dir: &Path,
        path: &Path,
        listing_of: &dyn Fn(&Path) -> Option<&'a [PathBuf]>,
    ) -> bool {
        if self.exists(path) {
            return true;
        }
        let Some((mut dir, mut path)) = self.step_into_nested(dir, path) else {
            return false;
        };
        // Down the nested skills, one listing each, as far as the path goes.
        loop {
            let Some(listing) = self.nested_listing(&dir, listing_of) else {
                return false;
            };
            if listing.exists(&path) {
                return true;
            }
            match listing.step_into_nested(&dir, &path) {
                Some(next) => (dir, path) = next,
                None => return false,
            }
        }
    }

    /// The listing of the skill folder `dir` (absolute) nested somewhere below this one's, built
    /// the first time it is asked for.
    fn nested_listing(
        &self,
        dir: &Path,
        listing_of: &dyn Fn(&Path) -> Option<&'a [PathBuf]>,
    ) -> Option<Rc<Listing<'a>>> {
        self.nested_listings
            .borrow_mut()
            .entry(dir.to_owned())
            .or_insert_with(|| listing_of(dir).map(|files| Rc::new(Listing::new(files))))
            .clone()
    }

    /// The nearest existing path to `path` in the skill folder `dir`: each missing component
    /// replaced by the closest entry of its folder, going on in a nested skill's listing where
    /// the path enters one; else the one file of the same name anywhere in this listing.
    fn suggestion(
        &self,
        dir: &Path,
        path: &Path,
        listing_of: &dyn Fn(&Path) -> Option<&'a [PathBuf]>,
    ) -> Option<PathBuf> {
        // The nested listing being walked (`None`: this one) and where it sits below `dir`.
        let mut nested: Option<Rc<Listing<'a>>> = None;
        let mut prefix = PathBuf::new();
        let mut current = PathBuf::new();
        let mut fixed = true;
        for component in path.components() {
            let here = nested.as_deref().unwrap_or(self);
            if here.nested.contains(current.as_path()) {
                // Below a nested skill's folder, its own listing has the entries.
                prefix.push(&current);
                nested = self.nested_listing(&dir.join(&prefix), listing_of);
                current = PathBuf::new();
                if nested.is_none() {
                    fixed = false;
                    break;
                }
            }
            let here = nested.as_deref().unwrap_or(self);
            let name = component.as_os_str().to_string_lossy();
            let next = current.join(name.as_ref());
            if here.exists(&next) {
                current = next;
                continue;
            }
            let entries = here.children.get(&current);
            match entries.and_then(|e| super::suggest::closest_in(&name, e.as_slice())) {
                Some(best) => current = current.join(best),
                None => {
                    fixed = false;
                    break;
                }
            }
        }
        let here = nested.as_deref().unwrap_or(self);
        let found = prefix.join(&current);
        if fixed && here.exists(&current) && found != path {
            return Some(found);
        }
        let name = path.file_name()?;
        let by_name = self.by_name.get_or_init(|| {
            let mut by_name: HashMap<&OsStr, Vec<&Path>> = HashMap::new();
            for file in self.all {
                if let Some(name) = file.file_name() {
                    by_name.entry(name).or_default().push(file);
                }
            }
            by_name
        });
        match by_name.get(name).map(Vec::as_slice) {
            Some([only]) => Some(only.to_path_buf()),
            _ => None,
        }
    }
}

/// Where a link leads, relative to the skill folder: `Ok(path)`, `Err(Outside)` when it leaves
/// the folder, `Err(Unknown)` when it cannot be said (a plugin path elsewhere in the plugin).
enum Resolved {
    Inside(PathBuf),
    Outside,
    Unknown,
}

fn resolve(link: &Link, skill_path: &Path) -> Resolved {
    let Some(dir) = skill_path.parent() else {
        return Resolved::Unknown;
    };
    let base = match link.base {
        LinkBase::SkillDir => dir.to_owned(),
        // `<plugin>/skills/<skill>/SKILL.md`: the plugin is above the `skills` folder.
        LinkBase::PluginRoot => match crate::model::skill_md::skill_root(skill_path) {
            Some(root) if root.file_name().is_some_and(|n| n == "skills") => match root.parent() {
                Some(plugin) => plugin.to_owned(),
                None => return Resolved::Unknown,
            },
            _ => return Resolved::Unknown,
        },
    };
    // Lexically: `.` dropped, `..` takes the last component off.
    let mut resolved = base;
    for component in Path::new(&link.path).components() {
        match component {
            Component::CurDir => {}
            Component::ParentDir => {
                resolved.pop();
            }
            Component::Normal(part) => resolved.push(part),
            _ => return Resolved::Unknown,
        }
    }
    match resolved.strip_prefix(dir) {
        Ok(inside) => Resolved::Inside(inside.to_owned()),
        // A plugin path elsewhere in the plugin is the plugin's business.
        Err(_) if link.base == LinkBase::PluginRoot => Resolved::Unknown,
        Err(_) => Resolved::Outside,
    }
}

pub fn check(scope: &SkillMdScope<'_>, out: &mut Vec<Diagnostic>) {
    let Some(dir) = scope.path.parent() else {
        return;
    };
    let Some(files) = scope.lookup.skill_files(dir) else {
        return;
    };
    let listing = Listing::new(files);
    for link in scope.skill.links(scope.text) {
        let written = &scope.text[link.range.start as usize..link.range.end as usize];
        match resolve(&link, scope.path) {
            Resolved::Unknown => {}
            Resolved::Outside => out.push(Diagnostic::new(
                codes::SKILLMD_LINK_OUTSIDE,
                scope.file,
                link.range,
                format!("`{written}` leaves the skill's folder; a skill is installed and uploaded as its folder alone, so copy the file into it and link it there"),
            )),
            Resolved::Inside(target)
                if listing.holds(dir, &target, &|nested| scope.lookup.skill_files(nested)) => {}
            Resolved::Inside(target) => {
                let mut message = format!(
                    "`{}` is not in the skill's folder",
                    target.to_string_lossy()
                );
                let suggestion = scope.lookup
                    .may_suggest()
                    .then(|| {
                        listing.suggestion(dir, &target, &|nested| scope.lookup.skill_files(nested))
                    })
                    .flatten();
                match suggestion {
                    Some(best) => message.push_str(&format!(
                        "; did you mean `{}`?",
                        best.to_string_lossy()
                    )),
                    None => message.push_str("; fix the path or add the file"),
                }
                out.push(Diagnostic::new(
                    codes::SKILLMD_BROKEN_LINK,
                    scope.file,
                    link.range,
                    message,
                ));
            }
        }
    }
}

/// The file a link of the SKILL.md at `skill_path` leads to, when its folder holds it (for
/// document links and go to definition): `listing` is the folder's, `listing_of` gives those of
/// nested skill folders.
pub fn target<'l>(
    link: &Link,
    skill_path: &Path,
    listing: &Listing<'l>,
    listing_of: &dyn Fn(&Path) -> Option<&'l [PathBuf]>,
) -> Option<PathBuf> {
    let Resolved::Inside(relative) = resolve(link, skill_path) else {
        return None;
    };
    let dir = skill_path.parent()?;
    listing
        .holds(dir, &relative, listing_of)
        .then(|| dir.join(relative))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(list: &[&str]) -> Vec<PathBuf> {
        list.iter().map(PathBuf::from).collect()
    }

    #[test]
    fn suggestions_fix_each_folder() {
        let files = paths(&[
            "SKILL.md",
            "references/api.md",
            "references/forms.md",
            "scripts/run.py",
        ]);
        let listing = Listing::new(&files);
        let suggest = |path: &str| listing.suggestion(Path::new("/s"), Path::new(path), &|_| None);
        assert!(listing.exists(Path::new("references")));
        assert_eq!(
            suggest("reference/api.md"),
            Some(PathBuf::from("references/api.md"))
        );
        assert_eq!(suggest("run.py"), Some(PathBuf::from("scripts/run.py")));
        assert_eq!(suggest("docs/nothing-like-it.md"), None);
    }

    #[test]
    fn suggestions_go_on_into_nested_skills() {
        let outer = paths(&["SKILL.md", "notes.md", "forms/SKILL.md"]);
        let inner = paths(&["SKILL.md", "references/fields.md"]);
        let listing = Listing::new(&outer);
        let listing_of = |dir: &Path| (dir == Path::new("/s/forms")).then_some(inner.as_slice());
        let suggest =
            |path: &str| listing.suggestion(Path::new("/s"), Path::new(path), &listing_of);
        assert_eq!(
            suggest("forms/reference/fields.md"),
            Some(PathBuf::from("forms/references/fields.md"))
        );
        assert_eq!(
            suggest("form/references/fields.md"),
            Some(PathBuf::from("forms/references/fields.md"))
        );
        assert!(listing.holds(
            Path::new("/s"),
            Path::new("forms/references/fields.md"),
            &listing_of
        ));
        // A nested folder nobody listed: nothing to go on with.
        let unlisted = |_: &Path| None;
        assert_eq!(
            Listing::new(&outer).suggestion(
                Path::new("/s"),
                Path::new("forms/reference/fields.md"),
                &unlisted
            ),
            None
        );
    }
}
