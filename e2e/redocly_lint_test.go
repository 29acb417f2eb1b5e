package e2e

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// lintReport is one document's answer of `redocly lint --format=json`.
type lintReport struct {
	Totals struct {
		Errors   int `json:"errors"`
		Warnings int `json:"warnings"`
	} `json:"totals"`
	Problems []struct {
		RuleID   string `json:"ruleId"`
		Severity string `json:"severity"`
		Message  string `json:"message"`
		Location []struct {
			Source struct {
				Ref string `json:"ref"`
			} `json:"source"`
			Pointer string `json:"pointer"`
		} `json:"location"`
	} `json:"problems"`
}

// TestOpenAPIDocumentsPassRedocly runs Redocly's linter (@redocly/cli, recommended rules, with
// the project's redocly.yaml) from the project root over every built-in OpenAPI document and
// fails on any error or warning, naming each.
func TestOpenAPIDocumentsPassRedocly(t *testing.T) {
	t.Parallel()
	cli, err := filepath.Abs(filepath.Join("node_modules", ".bin", "redocly"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(cli); err != nil {
		t.Fatal("Redocly's CLI is missing: run `make deps` (npm ci in e2e/)")
	}
	docs, err := filepath.Glob(filepath.Join("..", "content", "openapi", "*.yaml"))
	if err != nil || len(docs) == 0 {
		t.Fatalf("no OpenAPI document under content/openapi (%v)", err)
	}
	cmd := exec.Command(cli, "lint", "--format=json")
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "REDOCLY_TELEMETRY=off", "REDOCLY_SUPPRESS_UPDATE_NOTICE=true")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()

	dec := json.NewDecoder(&stdout)
	var reports []lintReport
	for {
		var r lintReport
		if err := dec.Decode(&r); errors.Is(err, io.EOF) {
			break
		} else if err != nil {
			t.Fatalf("reading redocly's report: %v\nstderr: %s", err, stderr.String())
		}
		reports = append(reports, r)
	}
	if got, want := len(reports), len(docs); got != want {
		t.Fatalf("redocly linted %d documents; want %d, one for each of %v: redocly.yaml must list every document under apis (%v)\nstderr: %s",
			got, want, docs, runErr, stderr.String())
	}
	for _, r := range reports {
		for _, p := range r.Problems {
			where := ""
			if len(p.Location) > 0 {
				where = p.Location[0].Source.Ref + " " + p.Location[0].Pointer
			}
			t.Errorf("%s: %s %s: %s", where, p.Severity, p.RuleID, p.Message)
		}
	}
	if runErr != nil && !t.Failed() {
		t.Errorf("redocly lint: %v\nstderr: %s", runErr, stderr.String())
	}
}
