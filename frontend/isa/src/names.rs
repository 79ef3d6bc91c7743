//! Names from files, made safe to print, and the error every loader gives for a kernel name
//! it does not have.

use thiserror::Error;

/// `name` as it may be printed in a one-line message: control characters escaped.
pub fn printable(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if c.is_control() {
            out.extend(c.escape_debug());
        } else {
            out.push(c);
        }
    }
    out
}

/// A kernel name the file does not have; lists the ones it has.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("kernel {name} not found; available: {available}")]
pub struct KernelNotFound {
    pub name: String,
    pub available: String,
}

impl KernelNotFound {
    /// The error for `name` among `kernels`, both made printable.
    pub fn new<'a>(name: &str, kernels: impl IntoIterator<Item = &'a str>) -> KernelNotFound {
        KernelNotFound {
            name: printable(name),
            available: kernels
                .into_iter()
                .map(printable)
                .collect::<Vec<_>>()
                .join(", "),
        }
    }
}

/// The item of `items` whose `name` is `wanted`, or the [`KernelNotFound`] listing them all.
pub fn find_kernel<'a, T>(
    items: &'a [T],
    name: impl Fn(&T) -> &str,
    wanted: &str,
) -> Result<&'a T, KernelNotFound> {
    items
        .iter()
        .find(|k| name(k) == wanted)
        .ok_or_else(|| KernelNotFound::new(wanted, items.iter().map(&name)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn control_characters_are_escaped() {
        assert_eq!(printable("a\nb\u{e9}"), "a\\nb\u{e9}");
    }

    #[test]
    fn missing_kernels_list_the_others() {
        let ks = ["one", "two"];
        assert_eq!(find_kernel(&ks, |k| k, "two"), Ok(&"two"));
        let e = find_kernel(&ks, |k| k, "th\x07ree").unwrap_err();
        assert_eq!(
            e.to_string(),
            "kernel th\\u{7}ree not found; available: one, two"
        );
    }
}
