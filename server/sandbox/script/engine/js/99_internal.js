// What the engine reads back after the user's function returned (services.go).

// outputOf is the JSON of what a web app serves for v, or undefined when v is no output.
internal.outputOf = function (v) {
  var out = textOutputOf(v) || htmlOutputOf(v);
  return out === undefined ? undefined : JSON.stringify(out);
};
