package engine

import (
	"errors"
	"regexp"
	"strings"

	"github.com/dop251/goja"
	"github.com/dop251/goja/ast"
	"github.com/dop251/goja/parser"
)

// lineMap maps the lines of one compiled program back to the files it was made of: a project
// file is one program of its own; a library is one program of all its files (library.go).
type lineMap []lineRange

// lineRange says that the program's lines from start on are the lines of file from 1 on.
type lineRange struct {
	file  string
	start int
}

// locate returns the file and its line for line of the program.
func (m lineMap) locate(line int) (string, int) {
	for i := len(m) - 1; i >= 0; i-- {
		if line >= m[i].start {
			return m[i].file, line - m[i].start + 1
		}
	}
	return "", line
}

// program is one loaded program: its line map and its source.
type program struct {
	lines  lineMap
	source string
}

// sources holds the loaded programs by program name.
type sources map[string]program

// Reasons a run is interrupted (the values passed to goja's Interrupt).
var (
	errRunTimeout   = errors.New("Exceeded maximum execution time")
	errRunMemory    = errors.New("Exceeded memory limit")
	errRunCancelled = errors.New("The run was stopped: its caller went away.")
)

// failure turns an error of the engine into the run's failure: a thrown JavaScript value, a
// stack overflow, or an interruption (time or memory limit).
func failure(err error, srcs sources) *Failure {
	var (
		interrupted *goja.InterruptedError
		overflow    *goja.StackOverflowError
		exc         *goja.Exception
	)
	switch {
	case errors.As(err, &interrupted):
		f := &Failure{Message: errRunTimeout.Error(), Limit: LimitTime, Stack: frames(interrupted.Stack(), srcs, nil)}
		if v, ok := interrupted.Value().(error); ok && errors.Is(v, errRunMemory) {
			f.Message, f.Limit = errRunMemory.Error(), LimitMemory
		} else if ok && errors.Is(v, errRunCancelled) {
			f.Message, f.Limit = errRunCancelled.Error(), LimitClient
		}
		return f
	case errors.As(err, &overflow):
		return &Failure{Type: "RangeError", Message: "Maximum call stack size exceeded", Limit: LimitStack, Stack: frames(overflow.Stack(), srcs, nil)}
	case errors.As(err, &exc):
		typ, msg := thrown(exc.Value())
		return &Failure{Type: typ, Message: msg, Stack: frames(exc.Stack(), srcs, constructors(exc.Value(), srcs))}
	}
	return compileFailure(err, srcs)
}

// thrown reads the type and message of a thrown value: an Error's name and message, otherwise
// "Error" and the value as a string (throw 'oops').
func thrown(v goja.Value) (typ, msg string) {
	if v == nil {
		return "Error", "undefined"
	}
	if obj, ok := v.(*goja.Object); ok && obj.ClassName() == "Error" {
		typ, msg = "Error", ""
		if n := obj.Get("name"); n != nil && !goja.IsUndefined(n) {
			typ = n.String()
		}
		if m := obj.Get("message"); m != nil && !goja.IsUndefined(m) {
			msg = m.String()
		}
		if typ == "TypeError" {
			msg = readNullish.ReplaceAllString(msg, "Cannot read properties of undefined or null (reading '$1')")
		}
		return typ, msg
	}
	return "Error", v.String()
}

// readNullish matches goja's message for reading a property of undefined or null. goja says
// "of undefined" for both, V8 names which one; the sandbox says both rather than a wrong one.
var readNullish = regexp.MustCompile(`^Cannot read property '(.*)' of undefined(?: or null)?$`)

// compileFailure turns a syntax error met while loading into a SyntaxError failure at its line.
func compileFailure(err error, srcs sources) *Failure {
	name, line, msg := syntaxPosition(err)
	f := &Failure{Type: "SyntaxError", Message: msg}
	if line > 0 {
		_, l := srcs[name].lines.locate(line)
		f.Stack = []Frame{{Function: "", LineNumber: l}}
	}
	return f
}

// classSpan is where a class of the project is written: the program and its lines.
type classSpan struct {
	program    string
	first, end int // program lines
	name       string
}

// contains reports whether the frame's program line lies in the class.
func (c classSpan) contains(program string, line int) bool {
	return program == c.program && line >= c.first && line <= c.end
}

// constructors returns, for an error made by a class of the project (class QuotaError extends
// Error), where that class and the classes it extends are written. V8 starts such an error's
// stack at the code that said new: the Error constructor and the classes' constructors that
// super() ran through are not frames of it.
func constructors(v goja.Value, srcs sources) []classSpan {
	obj, ok := v.(*goja.Object)
	if !ok || obj.ClassName() != "Error" {
		return nil
	}
	var spans []classSpan
	ctor, _ := obj.Get("constructor").(*goja.Object)
	for i := 0; ctor != nil && i < 32; i++ {
		text := ctor.String()
		if !strings.HasPrefix(text, "class") {
			break
		}
		for name, p := range srcs {
			at := strings.Index(p.source, text)
			if at < 0 {
				continue
			}
			first := 1 + strings.Count(p.source[:at], "\n")
			spans = append(spans, classSpan{program: name, first: first, end: first + strings.Count(text, "\n"), name: valueString(ctor.Get("name"))})
			break
		}
		ctor = ctor.Prototype()
	}
	return spans
}

// valueString is v as a string, "" for nil or undefined.
func valueString(v goja.Value) string {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		return ""
	}
	return v.String()
}

// stackTraceLimit is how many frames a stack keeps, as V8's Error.stackTraceLimit.
const stackTraceLimit = 10

// frames turns the engine's stack (deepest first) into ScriptStackTraceElements, keeping only
// the frames in the project's and its libraries' files, at most stackTraceLimit of them. The
// frames of the constructors of the error's classes (skip, see constructors) at the top of the
// stack are left out as V8 leaves them out; a class constructor deeper in the stack is named
// "new Name" as V8 names it.
func frames(stack []goja.StackFrame, srcs sources, skip []classSpan) []Frame {
	var out []Frame
	skipping := len(skip) > 0
	var named []classSpan // the project's classes, found when a frame needs a name
	found := false
	for i := range stack {
		f := &stack[i]
		p, ok := srcs[f.SrcName()]
		if !ok {
			continue
		}
		line := f.Position().Line
		name := f.FuncName()
		if skipping && spanOf(skip, f.SrcName(), line) != "" {
			continue
		}
		skipping = false
		if name == "" || name == "<anonymous>" {
			if !found {
				named, found = classesOf(srcs), true
			}
			if class := spanOf(named, f.SrcName(), line); class != "" {
				name = "new " + class
			}
		}
		_, l := p.lines.locate(line)
		out = append(out, Frame{Function: name, LineNumber: l})
		if len(out) == stackTraceLimit {
			break
		}
	}
	return out
}

// spanOf is the name of the class of spans written where the program's line is ("": none).
func spanOf(spans []classSpan, program string, line int) string {
	for _, c := range spans {
		if c.contains(program, line) {
			return c.name
		}
	}
	return ""
}

// classesOf finds the classes declared at the top level of the loaded programs.
func classesOf(srcs sources) []classSpan {
	var out []classSpan
	for name, p := range srcs {
		prg, err := parser.ParseFile(nil, name, p.source, 0)
		if err != nil {
			continue
		}
		line := func(idx int) int { return prg.File.Position(idx).Line }
		for _, st := range prg.Body {
			if d, ok := st.(*ast.ClassDeclaration); ok && d.Class != nil && d.Class.Name != nil {
				out = append(out, classSpan{program: name, first: line(int(d.Class.Class)), end: line(int(d.Class.RightBrace)),
					name: d.Class.Name.Name.String()})
			}
		}
	}
	return out
}
