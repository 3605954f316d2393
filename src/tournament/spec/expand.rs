//! The spec's text substitutions: `${VAR}` from the environment in engine commands, arguments,
//! `info` lines and paths, and the splitting of a `command` written with its arguments.
//!
//! **Variables.** `${NAME}` is replaced by the environment variable `NAME` (letters, digits and
//! `_`); `$$` is a literal `$`; any other `$` stays as written. An unset variable, an empty name or
//! a `${` without its `}` is an error that names the variable and the key it was found in. The
//! environment is passed in as a lookup function, so tests do not touch the process's own.
//!
//! **Command words.** A `command` that contains whitespace and comes with no `args` is split into
//! words like a simple shell line: whitespace separates words, `'…'` and `"…"` group a word that
//! contains spaces (no other escapes). With `args` given, `command` is taken whole (so a path with
//! spaces works there).

/// Looks up an environment variable.
pub type EnvLookup<'a> = &'a dyn Fn(&str) -> Option<String>;

/// Why a substitution failed (the caller adds the file and key).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ExpandError {
    /// `${NAME}` with `NAME` not set.
    #[error("environment variable {0} is not set (used as ${{{0}}})")]
    Unset(String),
    /// `${` with no `}`, or an empty or odd name.
    #[error("bad variable reference {0:?} (write ${{NAME}}, or $$ for a literal $)")]
    Bad(String),
    /// A quote that is not closed.
    #[error("unclosed {0} quote")]
    Unclosed(char),
    /// A command line whose first word is empty.
    #[error("no program in {0:?}")]
    NoProgram(String),
}

/// Replaces every `${NAME}` in `text` and turns `$$` into `$`.
pub fn expand(text: &str, env: EnvLookup<'_>) -> Result<String, ExpandError> {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('$') {
        out.push_str(&rest[..at]);
        let after = &rest[at + 1..];
        if let Some(tail) = after.strip_prefix('$') {
            out.push('$');
            rest = tail;
        } else if let Some(tail) = after.strip_prefix('{') {
            let Some(end) = tail.find('}') else {
                return Err(ExpandError::Bad(rest.to_string()));
            };
            let name = &tail[..end];
            let valid = !name.is_empty()
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
                && !name.starts_with(|c: char| c.is_ascii_digit());
            if !valid {
                return Err(ExpandError::Bad(format!("${{{name}}}")));
            }
            out.push_str(&env(name).ok_or_else(|| ExpandError::Unset(name.to_string()))?);
            rest = &tail[end + 1..];
        } else {
            out.push('$');
            rest = after;
        }
    }
    out.push_str(rest);
    Ok(out)
}

/// Splits a command line into words (see the module doc).
pub fn split_words(line: &str) -> Result<Vec<String>, ExpandError> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in line.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => word.push(c),
            None if c == '\'' || c == '"' => {
                quote = Some(c);
                in_word = true;
            }
            None if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            None => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if let Some(q) = quote {
        return Err(ExpandError::Unclosed(q));
    }
    if in_word {
        words.push(word);
    }
    Ok(words)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env(name: &str) -> Option<String> {
        match name {
            "PEER" => Some("/opt/peer/pbrain-x".into()),
            "EMPTY" => Some(String::new()),
            _ => None,
        }
    }

    #[test]
    fn variables_are_replaced_and_dollars_escaped() {
        assert_eq!(expand("${PEER}", &env).unwrap(), "/opt/peer/pbrain-x");
        assert_eq!(
            expand("a/${PEER}/b${EMPTY}", &env).unwrap(),
            "a//opt/peer/pbrain-x/b"
        );
        assert_eq!(
            expand("cost $$5 and $HOME", &env).unwrap(),
            "cost $5 and $HOME"
        );
        assert_eq!(expand("$${PEER}", &env).unwrap(), "${PEER}");
        assert_eq!(expand("plain", &env).unwrap(), "plain");
    }

    #[test]
    fn unset_and_malformed_references_are_errors() {
        let e = expand("${OMOK_PEER_AIWINE}", &env).unwrap_err();
        assert_eq!(e, ExpandError::Unset("OMOK_PEER_AIWINE".into()));
        assert!(e.to_string().contains("OMOK_PEER_AIWINE is not set"));
        assert!(matches!(expand("${PEER", &env), Err(ExpandError::Bad(_))));
        assert!(matches!(expand("${}", &env), Err(ExpandError::Bad(_))));
        assert!(matches!(expand("${A-B}", &env), Err(ExpandError::Bad(_))));
    }

    #[test]
    fn command_lines_split_into_words() {
        assert_eq!(
            split_words("/p/pbrain-omok --config x.toml").unwrap(),
            ["/p/pbrain-omok", "--config", "x.toml"]
        );
        assert_eq!(
            split_words("  '/My Engines/pbrain' \"a b\" c''d ''").unwrap(),
            ["/My Engines/pbrain", "a b", "cd", ""]
        );
        assert_eq!(
            split_words("x 'y").unwrap_err(),
            ExpandError::Unclosed('\'')
        );
    }
}
