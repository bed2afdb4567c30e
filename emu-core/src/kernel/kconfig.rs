//! A kernel `.config` turned into the `include/generated/autoconf.h` Kconfig would write.

use super::KernelError;

/// One symbol of a `.config` that is set (`n` and `# CONFIG_X is not set` are left out,
/// as Kconfig leaves them out of `autoconf.h`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConfigSymbol {
    /// Name without the `CONFIG_` prefix.
    pub name: String,
    /// The value as written after `=` (`y`, `m`, `"text"`, `250`, `0x4000`).
    pub value: String,
}

/// The set symbols of a `.config`, in file order.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct KernelConfig {
    /// The symbols.
    pub symbols: Vec<ConfigSymbol>,
}

impl KernelConfig {
    /// Parse `.config` text (`file` names it in errors). A later line for the same symbol
    /// replaces an earlier one, as `conf` does when it reads a config.
    ///
    /// # Errors
    /// A line that is neither a comment, blank, nor `CONFIG_NAME=VALUE`.
    pub fn parse(file: &str, text: &str) -> Result<KernelConfig, KernelError> {
        let mut config = KernelConfig::default();
        for (n, line) in text.lines().enumerate() {
            let line = line.trim_end();
            if line.trim().is_empty() || line.starts_with('#') {
                continue;
            }
            let bad = || KernelError::Config {
                file: file.to_string(),
                line: n as u32 + 1,
                message: format!("expected CONFIG_NAME=VALUE, found `{line}`"),
            };
            let (key, value) = line.split_once('=').ok_or_else(bad)?;
            let name = key.strip_prefix("CONFIG_").filter(|k| is_ident(k)).ok_or_else(bad)?;
            if value.is_empty() {
                return Err(bad());
            }
            config.set(name, value);
        }
        Ok(config)
    }

    /// Set (or replace) `CONFIG_name=value`; `n` removes the symbol.
    pub fn set(&mut self, name: &str, value: &str) {
        self.symbols.retain(|s| s.name != name);
        if value != "n" {
            self.symbols.push(ConfigSymbol { name: name.to_string(), value: value.to_string() });
        }
    }

    /// The value of `CONFIG_name`, if set.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.symbols.iter().find(|s| s.name == name).map(|s| s.value.as_str())
    }

    /// The `#define` lines of `autoconf.h`: `y` gives `CONFIG_X 1`, `m` gives
    /// `CONFIG_X_MODULE 1`, strings keep their quotes and escapes, numbers are copied
    /// (Kconfig adds `0x` to a hex value written without it; a `.config` written by Kconfig
    /// always has it, so a bare number here is taken as decimal).
    pub fn autoconf_h(&self) -> String {
        let mut out =
            String::from("/*\n * Automatically generated file; DO NOT EDIT.\n * (acctemu, from a .config)\n */\n");
        for s in &self.symbols {
            match s.value.as_str() {
                "y" => out.push_str(&format!("#define CONFIG_{} 1\n", s.name)),
                "m" => out.push_str(&format!("#define CONFIG_{}_MODULE 1\n", s.name)),
                v => out.push_str(&format!("#define CONFIG_{} {v}\n", s.name)),
            }
        }
        out
    }

    /// The symbols as `-D` pairs (what `autoconf.h` defines), for preprocessing C headers.
    pub fn defines(&self) -> Vec<(String, String)> {
        self.symbols
            .iter()
            .map(|s| match s.value.as_str() {
                "y" => (format!("CONFIG_{}", s.name), "1".to_string()),
                "m" => (format!("CONFIG_{}_MODULE", s.name), "1".to_string()),
                v => (format!("CONFIG_{}", s.name), v.to_string()),
            })
            .collect()
    }
}

fn is_ident(s: &str) -> bool {
    !s.is_empty() && s.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn autoconf_follows_kconfig_rules() {
        let text = "# comment\nCONFIG_SMP=y\nCONFIG_FOO=m\n# CONFIG_BAR is not set\nCONFIG_HZ=250\n\
                    CONFIG_STR=\"a \\\"b\\\"\"\nCONFIG_BASE=0x4000\nCONFIG_OFF=n\nCONFIG_SMP=y\n";
        let c = KernelConfig::parse(".config", text).unwrap();
        let h = c.autoconf_h();
        assert!(h.contains("#define CONFIG_SMP 1\n"));
        assert_eq!(h.matches("CONFIG_SMP").count(), 1);
        assert!(h.contains("#define CONFIG_FOO_MODULE 1\n"));
        assert!(!h.contains("BAR") && !h.contains("CONFIG_OFF"));
        assert!(h.contains("#define CONFIG_HZ 250\n"));
        assert!(h.contains("#define CONFIG_STR \"a \\\"b\\\"\"\n"));
        assert!(h.contains("#define CONFIG_BASE 0x4000\n"));
    }

    #[test]
    fn bad_line_is_an_error_with_its_line() {
        let e = KernelConfig::parse("my.config", "CONFIG_A=y\nFOO=y\n").unwrap_err();
        assert!(e.to_string().contains("my.config:2"), "{e}");
    }
}
