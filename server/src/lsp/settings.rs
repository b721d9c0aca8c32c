//! The editor's settings: `initializationOptions`, `workspace/didChangeConfiguration` and, for
//! pull-model clients, `workspace/configuration`. They take the keys of `skillgraph.toml` (at the
//! top or under `skillgraph`) and act as the config of files with no `skillgraph.toml` above them.

use std::collections::BTreeMap;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Arc;

use tower_lsp_server::ls_types::*;

use super::state::{lock, panic_message};
use super::{Backend, CLIENT_ANSWER_WAIT};
use crate::diagnostic::FileId;
use crate::index::Settings;
use crate::model::config::Config;

/// Settings from `initializationOptions` or `workspace/configuration`: the keys of
/// `skillgraph.toml`, either at the top or under a `skillgraph` section. `None` when there are
/// none; otherwise the settings and what was wrong with them.
pub fn settings_from(options: &serde_json::Value) -> Option<(Settings, Vec<String>)> {
    let section = options.get("skillgraph").unwrap_or(options);
    let object = section.as_object()?;
    // JSON nulls have no TOML form; a null key means "not set".
    // `env` is the server's own key, not one of skillgraph.toml's: the environment that
    // `${…}` references read, on top of the server's process environment.
    let (environment, mut env_problems) = environment_with(object.get("env"));
    let object: serde_json::Map<String, serde_json::Value> = object
        .iter()
        .filter(|(k, v)| !v.is_null() && k.as_str() != "env")
        .map(|(k, v)| (k.clone(), v.clone()))
        .collect();
    let text = match toml::to_string(&object) {
        Ok(text) => text,
        Err(error) => {
            return Some((
                Settings::default(),
                vec![format!(
                    "the settings are not a table of skillgraph.toml keys: {error}"
                )],
            ))
        }
    };
    let (config, problems) = Config::parse(FileId(u32::MAX), &text);
    let settings = Settings {
        severity_overrides: config.rules.iter().cloned().collect(),
        config: Some(config),
        environment,
        // The server looks up no binaries: command-pack requirements are judged by `check`.
        executables: Default::default(),
        // Nor does it look at `output_schema` paths on disk (`check` does).
        schema_paths: Default::default(),
    };
    env_problems.extend(problems.into_iter().map(|d| d.message));
    Some((settings, env_problems))
}

/// The server's process environment: what `${…}` references read after a workspace's
/// properties when the editor sets no `env`.
pub fn process_environment() -> Arc<BTreeMap<String, String>> {
    Arc::new(
        std::env::vars_os()
            .filter_map(|(k, v)| Some((k.into_string().ok()?, v.into_string().ok()?)))
            .collect(),
    )
}

/// The process environment with the editor's `env` setting (an object of strings) on top, and
/// what was wrong with the setting.
fn environment_with(
    setting: Option<&serde_json::Value>,
) -> (Arc<BTreeMap<String, String>>, Vec<String>) {
    let mut problems = Vec::new();
    let mut environment = (*process_environment()).clone();
    match setting {
        None | Some(serde_json::Value::Null) => {}
        Some(serde_json::Value::Object(entries)) => {
            for (name, value) in entries {
                match value.as_str() {
                    Some(value) => {
                        environment.insert(name.clone(), value.to_owned());
                    }
                    None => {
                        problems.push(format!("`env.{name}` must be a string, so it is ignored"))
                    }
                }
            }
        }
        Some(_) => problems
            .push("`env` must be an object of names to strings, so it is ignored".to_owned()),
    }
    (Arc::new(environment), problems)
}

impl Backend {
    /// Replaces the settings and republishes every file whose diagnostics they change.
    pub(super) async fn apply_settings(&self, options: &serde_json::Value) {
        let Some((settings, problems)) = settings_from(options) else {
            return;
        };
        for problem in problems {
            self.log(
                MessageType::WARNING,
                format!("skillgraph settings: {problem}"),
            )
            .await;
        }
        let result = {
            let mut state = lock(&self.state);
            let state = &mut *state;
            if state.index.settings == settings {
                return;
            }
            catch_unwind(AssertUnwindSafe(|| {
                let all = Arc::make_mut(&mut state.index).set_settings(settings);
                if state.indexed {
                    self.publish(state, all);
                }
            }))
            .map_err(|payload| panic_message(payload.as_ref()))
        };
        self.log_failure("settings", result).await;
        // `[audit]` may have moved the logs or turned their reading on or off.
        self.refresh_audit_logs(&[]);
    }

    pub(super) async fn configuration_changed(&self, params: DidChangeConfigurationParams) {
        let pushed = params.settings.as_object().is_some_and(|o| !o.is_empty());
        if pushed {
            self.apply_settings(&params.settings).await;
            return;
        }
        // Pull-model clients (VS Code) send no settings here: ask for the section.
        if !lock(&self.state).offers.pull_configuration {
            return;
        }
        let item = ConfigurationItem {
            scope_uri: None,
            section: Some("skillgraph".to_owned()),
        };
        let asked = tokio::time::timeout(CLIENT_ANSWER_WAIT, self.client.configuration(vec![item]));
        match asked.await {
            Ok(Ok(values)) => {
                if let Some(value) = values.into_iter().next() {
                    self.apply_settings(&value).await;
                }
            }
            Ok(Err(_)) => {}
            Err(_) => {
                self.log(
                    MessageType::WARNING,
                    format!(
                        "skillgraph: no answer to workspace/configuration within {} s; the settings stay as they were",
                        CLIENT_ANSWER_WAIT.as_secs()
                    ),
                )
                .await
            }
        }
    }
}
