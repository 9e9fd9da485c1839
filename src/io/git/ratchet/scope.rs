//! Where a candidate lies: the project's directory (a project in a
//! subdirectory of a larger repository is its own scope), and paths as
//! bytes (see [`crate::kernel::path_bytes`]).

use std::path::{Path, PathBuf};

use super::{inside, state_prefix, RatchetRepo};

/// The file-system path a carried path names: its bytes (see
/// [`crate::kernel::path_bytes`]; a path need not be UTF-8).
pub(crate) fn fs_path(path: &str) -> PathBuf {
    use std::os::unix::ffi::OsStringExt;
    let bytes = crate::kernel::path_bytes::to_bytes(path).into_owned();
    PathBuf::from(std::ffi::OsString::from_vec(bytes))
}

/// The carrier of a path git or the file system gave as bytes.
pub(crate) fn carry(bytes: &[u8]) -> String {
    crate::kernel::path_bytes::from_bytes(bytes).into_owned()
}

/// A carried path as git takes a pathspec or a tree entry's name: bytes.
pub(crate) fn git_bytes(path: &str) -> Vec<u8> {
    crate::kernel::path_bytes::to_bytes(path).into_owned()
}

impl RatchetRepo {
    /// The project's directory, `dir` (absolute, or relative to the
    /// working tree): when it is a subdirectory, the candidate is the
    /// change under it; changes outside it are left alone.
    pub fn set_scope(&mut self, dir: &Path) {
        let dir = self.workdir.join(dir);
        self.scope = state_prefix(&self.workdir, &dir).ok().flatten();
        self.scope_given = true;
    }

    /// Was the project's directory set ([`RatchetRepo::set_scope`])?
    pub fn scope_set(&self) -> bool {
        self.scope_given
    }

    /// The project's directory (the working tree without a scope).
    pub fn project_dir(&self) -> PathBuf {
        match &self.scope {
            Some(scope) => self.workdir.join(fs_path(scope)),
            None => self.workdir.clone(),
        }
    }

    /// The project's directory relative to the working tree, when it is a
    /// subdirectory.
    pub fn scope(&self) -> Option<&str> {
        self.scope.as_deref()
    }

    /// Is `path` outside the project's directory (and not one of the
    /// directories above it)?
    /// `path` (from the working tree's root) as the project's patterns
    /// (`protect`, `inputs`) see it: relative to the project's directory.
    pub(crate) fn in_project<'a>(&self, path: &'a str) -> &'a str {
        match self.scope.as_deref() {
            Some(scope) => path
                .strip_prefix(scope)
                .and_then(|rest| rest.strip_prefix('/'))
                .unwrap_or(path),
            None => path,
        }
    }

    /// Where a walk of the project's files starts: its directory and the
    /// prefix of the paths in it.
    pub(crate) fn project_walk(&self) -> (PathBuf, String) {
        match self.scope.as_deref() {
            Some(scope) => (self.project_dir(), format!("{scope}/")),
            None => (self.workdir.clone(), String::new()),
        }
    }

    pub(crate) fn out_of_scope(&self, path: &str) -> bool {
        match self.scope.as_deref() {
            Some(scope) => !inside(Some(scope), path) && !inside(Some(path), scope),
            None => false,
        }
    }
}
