package config

import (
	"errors"
	"fmt"
	"os"
	"reflect"
	"strings"
	"time"

	"go.yaml.in/yaml/v4"
)

// Load reads the configuration file at path (none when path is empty), applies the environment
// overrides, fills the defaults, validates the result and reads every credential. Its error
// names the offending key and what is expected.
func Load(path string) (*Config, error) {
	var data []byte
	if path != "" {
		var err error
		data, err = os.ReadFile(path)
		if err != nil {
			return nil, fmt.Errorf("reading the configuration: %w", err)
		}
	}
	c, err := Parse(data, path, os.LookupEnv)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// Parse is Load on a file's contents: name is the file name for messages and Config.Path, and
// lookupEnv reads the environment (os.LookupEnv, or a map in tests).
func Parse(data []byte, name string, lookupEnv func(string) (string, bool)) (*Config, error) {
	c := &Config{}
	if err := decodeStrict(data, c); err != nil {
		return nil, fmt.Errorf("%s: %w", orDefault(name, "configuration"), err)
	}
	c.Path = name
	c.lookupEnv = lookupEnv
	if err := applyEnv(c, lookupEnv); err != nil {
		return nil, err
	}
	c.applyDefaults()
	if err := c.Validate(); err != nil {
		return nil, err
	}
	if err := c.ResolveCredentials(); err != nil {
		return nil, err
	}
	return c, nil
}

// decodeStrict decodes YAML into c, refusing unknown keys and values of the wrong type with the
// key's full path and line.
func decodeStrict(data []byte, c *Config) error {
	if len(strings.TrimSpace(string(data))) == 0 {
		return nil
	}
	var doc yaml.Node
	if err := yaml.Load(data, &doc); err != nil {
		return err
	}
	root := &doc
	if root.Kind == yaml.DocumentNode && len(root.Content) > 0 {
		root = root.Content[0]
	}
	if err := check(root, reflect.TypeOf(*c), ""); err != nil {
		return err
	}
	return root.Decode(c)
}

// check walks a YAML node against the Go type it decodes into.
func check(n *yaml.Node, t reflect.Type, path string) error {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return nil
	}
	switch {
	case t == reflect.TypeOf(time.Duration(0)):
		if _, err := time.ParseDuration(n.Value); err != nil || n.Kind != yaml.ScalarNode {
			return fmt.Errorf("line %d: %s: expected a duration such as 30s or 5m, got %q", n.Line, path, n.Value)
		}
		return nil
	case t.Kind() == reflect.Interface:
		return nil // any value (apis.<slug>.sandbox_hints), read by what uses it
	case t.Kind() == reflect.Struct:
		if n.Kind != yaml.MappingNode {
			return fmt.Errorf("line %d: %s: expected a mapping of keys", n.Line, orDefault(path, "the top level"))
		}
		fields := map[string]reflect.StructField{}
		var names []string
		var add func(t reflect.Type)
		add = func(t reflect.Type) {
			for i := 0; i < t.NumField(); i++ {
				f := t.Field(i)
				tag, opt, _ := strings.Cut(f.Tag.Get("yaml"), ",")
				if opt == "inline" && f.Type.Kind() == reflect.Struct {
					add(f.Type) // its keys are the parent's
					continue
				}
				if tag == "" || tag == "-" {
					continue
				}
				fields[tag] = f
				names = append(names, tag)
			}
		}
		add(t)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			f, ok := fields[k.Value]
			if !ok {
				return fmt.Errorf("line %d: unknown key %s; expected one of: %s", k.Line, join(path, k.Value), strings.Join(names, ", "))
			}
			if err := check(v, f.Type, join(path, k.Value)); err != nil {
				return err
			}
		}
		return nil
	case t.Kind() == reflect.Map:
		if n.Kind != yaml.MappingNode {
			return fmt.Errorf("line %d: %s: expected a mapping of keys", n.Line, path)
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			if err := check(n.Content[i+1], t.Elem(), join(path, n.Content[i].Value)); err != nil {
				return err
			}
		}
		return nil
	case t.Kind() == reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			return fmt.Errorf("line %d: %s: expected a list such as [a, b]", n.Line, path)
		}
		for i, e := range n.Content {
			if err := check(e, t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		return nil
	}
	if n.Kind != yaml.ScalarNode {
		return fmt.Errorf("line %d: %s: expected %s", n.Line, path, describe(t))
	}
	if err := n.Decode(reflect.New(t).Interface()); err != nil {
		return fmt.Errorf("line %d: %s: expected %s, got %q", n.Line, path, describe(t), n.Value)
	}
	return nil
}

func describe(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int64:
		return "a whole number"
	case reflect.Float64:
		return "a number"
	}
	return "a single value"
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// errKey is a validation error about one key.
func errKey(key, format string, args ...any) error {
	return errors.New(key + ": " + fmt.Sprintf(format, args...))
}
