// Functions the semantics table of run_test.go calls: the line numbers matter.
function add(a, b) {
  return a + b;
}

function sum(list) {
  var total = 0;
  for (var i = 0; i < list.length; i++) {
    total += list[i];
  }
  return total;
}

function shout(s) {
  return s.toUpperCase() + '!' + ' '.repeat(2).length + `${s.length}`;
}

function evens(n) {
  return Array.from({length: n}, (_, i) => i).filter(i => i % 2 === 0).map(i => i * 10);
}

function person(name, age) {
  const p = {name, age, tags: ['a'], nested: {ok: true}, gone: undefined, fn: function () {}};
  return Object.assign({}, p, {adult: age >= 18});
}

function counter() {
  function make() {
    let n = 0;
    return () => ++n;
  }
  const c = make();
  c();
  c();
  return c();
}

function fib(n) {
  return n < 2 ? n : fib(n - 1) + fib(n - 2);
}

function roundTrip(obj) {
  const s = JSON.stringify(obj);
  return JSON.parse(s).items.length + ':' + s;
}

function when() {
  return new Date(Date.UTC(2026, 10, 20, 12, 5, 31, 204));
}

function maths() {
  return [Math.max(3, 9, 4), Math.floor(-2.5), Math.round(Math.PI * 100) / 100, Math.sqrt(16)];
}

function guarded() {
  try {
    null.foo;
  } catch (e) {
    return e.name + ': ' + (e instanceof TypeError);
  } finally {
    Logger.log('finally %s', 'ran');
  }
}

class QuotaError extends Error {
  constructor(message) {
    super(message);
    this.name = 'QuotaError';
  }
}

function overQuota() {
  throw new QuotaError('Only 3 invoices a day');
}

function nullFoo() {
  return null.foo;
}

function caller() {
  return helper(2) + 1;
}

function undefinedVar() {
  return notDefinedAnywhere;
}

function plain() {
  throw 'oops';
}

function nothing() {
  console.log('no result', {a: 1}, [2]);
}

function forever() {
  while (true) {}
}

function deep(n) {
  return deep(n + 1);
}

function giveFunction() {
  return function () {};
}

function libTwice(x) {
  return MathLib.twice(x);
}

function libThrow() {
  return MathLib.fail();
}
