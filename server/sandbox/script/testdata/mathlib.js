function twice(x) {
  return 2 * x;
}

function fail() {
  return private_().boom;
}

function private_() {
  return undefined;
}
