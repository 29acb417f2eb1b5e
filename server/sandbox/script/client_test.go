package script

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"reflect"
	"testing"

	"google.golang.org/api/googleapi"
	"google.golang.org/api/option"
	scriptapi "google.golang.org/api/script/v1"
)

// bearer adds the sandbox key to every request, as the proxy does.
type bearer struct{ key string }

func (b bearer) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+b.key)
	return http.DefaultTransport.RoundTrip(r)
}

// clientTarget is a base URL the official client is pointed at. The integrator may add an entry
// that goes through the real proxy.
type clientTarget struct {
	name  string
	start func(t *testing.T) (baseURL string) // a URL ending in "/"
}

// clientTargets lists the ways to reach the sandbox.
var clientTargets = []clientTarget{
	{"sandbox", func(t *testing.T) string {
		h, _ := newTest(t)
		mux := http.NewServeMux()
		mux.Handle("/sandbox/script/", http.StripPrefix("/sandbox/script", h))
		srv := httptest.NewServer(mux)
		t.Cleanup(srv.Close)
		return srv.URL + "/sandbox/script/"
	}},
}

// TestOfficialClient drives the sandbox with google.golang.org/api/script/v1.
func TestOfficialClient(t *testing.T) {
	for _, target := range clientTargets {
		t.Run(target.name, func(t *testing.T) {
			ctx := context.Background()
			base := target.start(t)
			svc, err := scriptapi.NewService(ctx, option.WithEndpoint(base),
				option.WithHTTPClient(&http.Client{Transport: bearer{"loupe-sandbox-key"}}))
			if err != nil {
				t.Fatalf("NewService: %v", err)
			}
			p, err := svc.Projects.Get(SeedScriptID).Context(ctx).Do()
			if err != nil || p.Title != "Invoice mailer" || p.Creator.Email != "ada@example.com" {
				t.Errorf("projects.get: got %+v, %v; want Invoice mailer by Ada", p, err)
			}
			c, err := svc.Projects.GetContent(SeedScriptID).VersionNumber(3).Context(ctx).Do()
			if err != nil || len(c.Files) != 2 || c.Files[1].FunctionSet == nil ||
				!reflect.DeepEqual(c.Files[1].FunctionSet.Values[0].Parameters, []string{"month"}) {
				t.Errorf("projects.getContent: got %+v, %v; want 2 files with sendInvoices(month)", c, err)
			}
			var versions []int64
			err = svc.Projects.Versions.List(SeedScriptID).PageSize(2).Pages(ctx, func(r *scriptapi.ListVersionsResponse) error {
				for _, v := range r.Versions {
					versions = append(versions, v.VersionNumber)
				}
				return nil
			})
			if err != nil || !reflect.DeepEqual(versions, []int64{1, 2, 3}) {
				t.Errorf("projects.versions.list: got %v, %v; want [1 2 3]", versions, err)
			}
			v, err := svc.Projects.Versions.Create(SeedScriptID, &scriptapi.Version{Description: "from the client"}).Context(ctx).Do()
			if err != nil || v.VersionNumber != 4 {
				t.Errorf("projects.versions.create: got %+v, %v; want version 4", v, err)
			}
			d, err := svc.Projects.Deployments.Get(SeedScriptID, SeedAddOnDeploymentID).Context(ctx).Do()
			if err != nil || len(d.EntryPoints) != 1 || d.EntryPoints[0].AddOn == nil || d.EntryPoints[0].AddOn.AddOnType != "MAIL" {
				t.Errorf("projects.deployments.get: got %+v, %v; want the MAIL add-on", d, err)
			}
			op, err := svc.Scripts.Run(SeedDeploymentID, &scriptapi.ExecutionRequest{Function: "sendInvoices", Parameters: []any{"2026-11"}}).Context(ctx).Do()
			if err != nil || !op.Done || op.Error != nil {
				t.Fatalf("scripts.run: got %+v, %v; want done", op, err)
			}
			var resp scriptapi.ExecutionResponse
			if err := json.Unmarshal(op.Response, &resp); err != nil || !reflect.DeepEqual(resp.Result, []any{"INV-1001", "INV-1002"}) {
				t.Errorf("scripts.run: result got %v (%v); want [INV-1001 INV-1002]", resp.Result, err)
			}
			op, err = svc.Scripts.Run(SeedDeploymentID, &scriptapi.ExecutionRequest{Function: "nope"}).Context(ctx).Do()
			if err != nil || op.Error == nil || op.Error.Code != 3 || len(op.Error.Details) != 1 {
				t.Errorf("scripts.run of a missing function: got %+v, %v; want error code 3", op, err)
			}
			ps, err := svc.Processes.ListScriptProcesses().ScriptId(SeedScriptID).ScriptProcessFilterFunctionName("nope").Context(ctx).Do()
			if err != nil || len(ps.Processes) != 1 || ps.Processes[0].ProcessStatus != "FAILED" {
				t.Errorf("processes.listScriptProcesses: got %+v, %v; want the failed run", ps, err)
			}
			m, err := svc.Projects.GetMetrics(SeedScriptID).MetricsGranularity("DAILY").Context(ctx).Do()
			if err != nil || len(m.TotalExecutions) != 3 || m.TotalExecutions[2].Value != 2 {
				t.Errorf("projects.getMetrics: got %+v, %v; want 3 days, 2 runs today", m, err)
			}

			// Errors surface as *googleapi.Error with the API's code and message.
			_, err = svc.Projects.Get("nope").Context(ctx).Do()
			var gerr *googleapi.Error
			if !errors.As(err, &gerr) || gerr.Code != 404 || gerr.Message != "Requested entity was not found." {
				t.Errorf("unknown project: got %v; want googleapi.Error 404", err)
			}
			bad, _ := scriptapi.NewService(ctx, option.WithEndpoint(base), option.WithHTTPClient(&http.Client{Transport: bearer{"wrong"}}))
			_, err = bad.Projects.Get(SeedScriptID).Context(ctx).Do()
			if !errors.As(err, &gerr) || gerr.Code != 401 {
				t.Errorf("wrong key: got %v; want googleapi.Error 401", err)
			}
		})
	}
}
