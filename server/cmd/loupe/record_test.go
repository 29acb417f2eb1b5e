package main

import (
	"bytes"
	"io"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"loupe/app/request"
	"loupe/server"
	"loupe/server/walkthrough/record"
)

// TestARecordedWalkthroughRunsBack sends create, read and delete requests to the script
// sandbox through the proxy, as the operation page does, records them as a walkthrough, writes
// it, and runs it back with `loupe walk FILE`: the ids the answers gave are carried as runtime
// expressions, so the replay makes its own project and deployment and passes.
func TestARecordedWalkthroughRunsBack(t *testing.T) {
	t.Setenv("LOUPE_CONFIG", "")
	srv, err := server.New(server.Config{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	defer func() { ts.Close(); srv.Close() }()
	api := srv.Catalog().API("script")
	jar, _ := cookiejar.New(nil)
	client := &http.Client{Jar: jar}
	var exs []record.Exchange
	var last string
	send := func(opID string, params map[string]string, body string) {
		t.Helper()
		op := api.Operation(opID)
		st := request.State{Params: map[string][]string{}, Body: body}
		for k, v := range params {
			st.Params[k] = []string{v}
		}
		base := ts.URL + "/proxy/script"
		req, errs := request.Build(op, base, st)
		if len(errs) > 0 {
			t.Fatalf("%s: %v", opID, errs)
		}
		hr, _ := http.NewRequest(req.Method, req.URL, bytes.NewReader(req.Body))
		for _, h := range req.Headers {
			hr.Header.Add(h.Name, h.Value)
		}
		resp, err := client.Do(hr)
		if err != nil {
			t.Fatal(err)
		}
		raw, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode >= 300 {
			t.Fatalf("%s: got %d %s", opID, resp.StatusCode, raw)
		}
		last = string(raw)
		sent, err := record.Sent(op.Path, base, req.URL, nil)
		if err != nil {
			t.Fatal(err)
		}
		ct := ""
		if body != "" {
			ct = "application/json"
		}
		exs = append(exs, record.Exchange{API: "script", OperationID: op.ID, Method: op.Method, Path: op.Path, Params: sent,
			ContentType: ct, Body: body, Status: resp.StatusCode, ResponseContentType: resp.Header.Get("Content-Type"), ResponseBody: string(raw)})
	}
	field := func(name string) string {
		_, rest, _ := strings.Cut(last, `"`+name+`":`)
		rest = strings.TrimLeft(rest, ` "`)
		return rest[:strings.IndexAny(rest, `",}`)]
	}
	send("projects.create", nil, `{"title":"Recorded project"}`)
	scriptID := field("scriptId")
	send("projects.updateContent", map[string]string{"path:scriptId": scriptID},
		`{"files":[{"name":"appsscript","type":"JSON","source":"{\"timeZone\":\"Europe/London\",\"executionApi\":{\"access\":\"MYSELF\"}}"},{"name":"Code","type":"SERVER_JS","source":"function hello() { return 1; }"}]}`)
	send("projects.versions.create", map[string]string{"path:scriptId": scriptID}, `{"description":"recorded"}`)
	send("projects.deployments.create", map[string]string{"path:scriptId": scriptID}, `{"versionNumber":1,"manifestFileName":"appsscript","description":"recorded"}`)
	deploymentID := field("deploymentId")
	send("projects.deployments.get", map[string]string{"path:scriptId": scriptID, "path:deploymentId": deploymentID}, "")
	send("projects.deployments.delete", map[string]string{"path:scriptId": scriptID, "path:deploymentId": deploymentID}, "")

	doc, err := record.Record(exs, record.Options{Title: "Create, read and delete a deployment"})
	if err != nil {
		t.Fatal(err)
	}
	data, err := doc.YAML()
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"value: $steps.s1.outputs.scriptId", "value: $steps.s4.outputs.deploymentId", "scriptId: $response.body#/scriptId",
		"- condition: $statusCode == 200", "operationPath: '{$sourceDescriptions.script.url}#/paths/~1v1~1projects~1{scriptId}~1deployments~1{deploymentId}/delete'"} {
		if !strings.Contains(string(data), want) {
			t.Errorf("the recorded document\n%s\nwant it to contain %q", data, want)
		}
	}
	if strings.Contains(string(data), scriptID) || strings.Contains(string(data), deploymentID) {
		t.Errorf("the recorded document\n%s\nholds the recorded ids (%s, %s); want them carried as expressions", data, scriptID, deploymentID)
	}
	file := filepath.Join(t.TempDir(), "recorded.arazzo.yaml")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errOut strings.Builder
	if code := walkMain([]string{file}, &out, &errOut); code != 0 || !strings.Contains(out.String(), "PASS: 6 steps, 6 criteria held") {
		t.Errorf("loupe walk %s: exit %d\n%s%s\nthe document:\n%s", file, code, out.String(), errOut.String(), data)
	}
}
