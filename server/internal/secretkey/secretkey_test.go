package secretkey

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const goodKey = "0123456789abcdef0123456789abcdef-good"

func TestLoad(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string, mode os.FileMode) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), mode); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good", "  "+goodKey+"\n", 0o600)
	short := write("short", "too-short\n", 0o600)
	unreadable := filepath.Join(dir, "missing")
	kept := t.TempDir()
	write2 := filepath.Join(t.TempDir(), FileName)
	if err := os.WriteFile(write2, []byte("short"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name    string
		opts    Options
		source  string // a part of the source said
		wantErr string // a part of the error; "" for none
		same    string // the key text it must equal, when known
	}{
		{"env", Options{Value: goodKey, File: good, DataDir: kept}, "LOUPE_SECRET_KEY", "", goodKey},
		{"env too short", Options{Value: "abc"}, "", "LOUPE_SECRET_KEY: the key is 3 bytes long; it must be at least 32", ""},
		{"file", Options{File: good, DataDir: kept}, "server.secret_key " + good, "", goodKey},
		{"file too short", Options{File: short}, "", "server.secret_key: " + short + ": the key is 9 bytes long", ""},
		{"file unreadable", Options{File: unreadable}, "", "server.secret_key: reading the key file", ""},
		{"file is a directory", Options{File: dir}, "", "server.secret_key: reading the key file", ""},
		{"generated", Options{DataDir: kept}, "made and kept in " + filepath.Join(kept, FileName), "", ""},
		{"reused", Options{DataDir: kept}, filepath.Join(kept, FileName), "", ""},
		{"kept key too short", Options{DataDir: filepath.Dir(write2)}, "", "server.data_dir: the secret key: " + write2, ""},
		{"in memory", Options{}, "in memory", "", ""},
	}
	var generated Key
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k, source, err := Load(tt.opts)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("got error %v; want one containing %q", err, tt.wantErr)
				}
				if strings.Contains(err.Error(), goodKey) {
					t.Errorf("got error %q; it holds the key", err)
				}
				return
			}
			if err != nil {
				t.Fatalf("got error %v; want none", err)
			}
			if !strings.Contains(source, tt.source) {
				t.Errorf("got source %q; want it to contain %q", source, tt.source)
			}
			if tt.same != "" && string(k.material) != tt.same {
				t.Errorf("got key %q; want %q", k.material, tt.same)
			}
			if len(k.material) < MinLength {
				t.Errorf("got a key of %d bytes; want at least %d", len(k.material), MinLength)
			}
			switch tt.name {
			case "generated":
				generated = k
				fi, err := os.Stat(filepath.Join(kept, FileName))
				if err != nil {
					t.Fatal(err)
				}
				if got := fi.Mode().Perm(); got != 0o600 {
					t.Errorf("got mode %v; want 0600", got)
				}
				tmps, _ := filepath.Glob(filepath.Join(kept, "*.tmp"))
				if len(tmps) != 0 {
					t.Errorf("got temporary files %v left; want none", tmps)
				}
			case "reused":
				if !bytes.Equal(k.material, generated.material) {
					t.Error("got another key on the second start; want the one kept")
				}
			}
		})
	}
}

func TestDerive(t *testing.T) {
	a, b := Key{material: []byte(goodKey)}, Key{material: []byte(goodKey)}
	other := Key{material: []byte(goodKey + "x")}
	if got := a.Derive("p1"); !bytes.Equal(got, b.Derive("p1")) || len(got) != 32 {
		t.Errorf("got %x and %x; want the same 32 bytes from the same key and purpose", got, b.Derive("p1"))
	}
	if bytes.Equal(a.Derive("p1"), a.Derive("p2")) {
		t.Error("got the same bytes for two purposes; want different")
	}
	if bytes.Equal(a.Derive("p1"), other.Derive("p1")) {
		t.Error("got the same bytes for two keys; want different")
	}
	if bytes.Equal(Random().Derive("p"), Random().Derive("p")) {
		t.Error("got the same bytes from two random keys; want different")
	}
}
