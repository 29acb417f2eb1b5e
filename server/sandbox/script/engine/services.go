package engine

import (
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"
)

// The services are written in JavaScript (js/*.js), over the Go natives (natives.go): one
// program, compiled once per process, whose function each run calls with the natives, the job
// and an object it fills with what the engine reads back (internal).
//
//go:embed js/*.js
var servicesJS embed.FS

// servicesProgram is the services' program, compiled once.
var servicesProgram = sync.OnceValues(func() (*goja.Program, error) {
	names, err := fs.Glob(servicesJS, "js/*.js")
	if err != nil {
		return nil, err
	}
	sort.Strings(names) // base.js first: the files are numbered
	var b strings.Builder
	b.WriteString("(function (native, job, internal) {\n'use strict';\n")
	for _, name := range names {
		src, err := fs.ReadFile(servicesJS, name)
		if err != nil {
			return nil, err
		}
		b.Write(src)
		b.WriteString("\n")
	}
	b.WriteString("})")
	return goja.Compile("loupe:services", b.String(), true)
})

// services is a run's handle on its services: what the engine calls after the user's code.
type services struct {
	vm        *goja.Runtime
	internal  *goja.Object
	parse     goja.Callable // JSON.parse and JSON.stringify, as they were before user code ran
	stringify goja.Callable
}

// install defines the services in vm for job.
func install(vm *goja.Runtime, n *natives, job Job, loc *time.Location) (*services, error) {
	prg, err := servicesProgram()
	if err != nil {
		return nil, fmt.Errorf("compiling the services: %w", err)
	}
	v, err := vm.RunProgram(prg)
	if err != nil {
		return nil, err
	}
	fn, ok := goja.AssertFunction(v)
	if !ok {
		return nil, fmt.Errorf("the services' program is not a function")
	}
	html := map[string]any{}
	for _, f := range job.Files {
		if f.Type == "HTML" {
			html[f.Name] = f.Source
		}
	}
	j := vm.NewObject()
	for k, v := range map[string]any{"scriptId": job.ScriptID, "title": job.Title, "parentId": job.ParentID,
		"user": job.User, "timeZone": loc.String(), "html": html} {
		_ = j.Set(k, v)
	}
	s := &services{vm: vm, internal: vm.NewObject()}
	jsonObj := vm.Get("JSON").ToObject(vm)
	s.parse, _ = goja.AssertFunction(jsonObj.Get("parse"))
	s.stringify, _ = goja.AssertFunction(jsonObj.Get("stringify"))
	if _, err := fn(goja.Undefined(), n.object(), j, s.internal); err != nil {
		return nil, err
	}
	return s, nil
}

// call calls the internal function name with args.
func (s *services) call(name string, args ...goja.Value) (goja.Value, error) {
	fn, ok := goja.AssertFunction(s.internal.Get(name))
	if !ok {
		return nil, fmt.Errorf("the services have no %s", name)
	}
	return fn(goja.Undefined(), args...)
}

// changes returns the run's writes not yet committed (nil when the services cannot say).
func (s *services) changes() []Change {
	v, err := s.call("changes")
	if err != nil || v == nil || goja.IsUndefined(v) {
		return nil
	}
	var out []Change
	if json.Unmarshal([]byte(v.String()), &out) != nil {
		return nil
	}
	return out
}

// output reads what a web app's doGet or doPost returned: a TextOutput or an HtmlOutput,
// within max bytes; anything else is the error Apps Script shows.
func (s *services) output(v goja.Value, max int) (*Output, *Failure) {
	o, err := s.call("outputOf", v)
	if err != nil {
		return nil, &Failure{Type: "Error", Message: err.Error()}
	}
	if o == nil || goja.IsUndefined(o) || goja.IsNull(o) {
		return nil, &Failure{Type: "ScriptError", Message: "The script completed but the returned value is not a supported return type."}
	}
	var out Output
	if err := json.Unmarshal([]byte(o.String()), &out); err != nil {
		return nil, &Failure{Type: "Error", Message: err.Error()}
	}
	if len(out.Content) > max {
		return nil, tooLarge("output", len(out.Content), max)
	}
	return &out, nil
}
