//! The declared inputs `arx init` can see: the files a command names
//! that git ignores.

use std::path::Path;

use git2::Repository;

/// Of `words` (paths relative to `dir`, as a command names them; see
/// `config_text::named_paths`), the ones git ignores in the repository
/// holding `dir`, as declared-input patterns from `dir` (the project's
/// directory): the topmost ignored directory on the way (`data/**`), or
/// the file itself. A word naming nothing that exists, a tracked file, or
/// one under an ignored directory above `dir` is left out.
pub fn ignored_inputs(dir: &Path, words: &[String]) -> Vec<String> {
    let Ok(repo) = Repository::discover(dir) else {
        return Vec::new();
    };
    let Some(root) = repo.workdir().and_then(|w| w.canonicalize().ok()) else {
        return Vec::new();
    };
    // Patterns are written from the project's directory, `dir`.
    let project = dir
        .canonicalize()
        .ok()
        .and_then(|d| d.strip_prefix(&root).ok().map(Path::to_path_buf))
        .map(|p| p.to_string_lossy().into_owned())
        .unwrap_or_default();
    let mut out: Vec<String> = Vec::new();
    for word in words {
        let Ok(full) = dir.join(word).canonicalize() else {
            continue;
        };
        let Ok(rel) = full.strip_prefix(&root) else {
            continue;
        };
        let parts: Vec<String> = rel
            .components()
            .map(|c| c.as_os_str().to_string_lossy().into_owned())
            .collect();
        let mut found = None;
        for n in 1..=parts.len() {
            let prefix = parts[..n].join("/");
            let is_dir = root.join(&prefix).is_dir();
            let probe = if is_dir {
                format!("{prefix}/")
            } else {
                prefix.clone()
            };
            if repo.is_path_ignored(&probe).unwrap_or(false) {
                found = Some(if is_dir {
                    format!("{prefix}/**")
                } else {
                    prefix
                });
                break;
            }
        }
        let found = match (found, project.is_empty()) {
            (Some(p), false) => p
                .strip_prefix(&project)
                .and_then(|p| p.strip_prefix('/'))
                .map(str::to_string),
            (found, _) => found,
        };
        if let Some(pattern) = found {
            if !out.contains(&pattern) {
                out.push(pattern);
            }
        }
    }
    out
}
