var base = 40;

function helper(x) {
  return base + x;
}
