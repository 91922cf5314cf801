// math.Exp as Go runs it on amd64 (the assembly archExp, FMA variant, which every x86-64 CPU with AVX2 takes):
// reduce by k·ln2 (k rounded to nearest), a Taylor series on r/16, four squarings of the form y·(y+2), then
// scale by 2^k. The portable exp.go algorithm differs in the last bit for some inputs (0.1 ** 2.5).

const view = new DataView(new ArrayBuffer(8));

/** A finite double as an exact integer mantissa and a power of two. */
function exact(f: number): { m: bigint; e: number } {
  view.setFloat64(0, f);
  const raw = view.getBigUint64(0);
  const sign = raw >> 63n === 1n ? -1n : 1n;
  const field = Number((raw >> 52n) & 0x7ffn);
  const fraction = raw & 0xfffffffffffffn;
  if (field === 0) return { m: sign * fraction, e: -1074 };
  return { m: sign * (fraction | (1n << 52n)), e: field - 1075 };
}

function scale(f: number, e: number): number {
  let out = f;
  let rest = e;
  while (rest > 1000) {
    out *= 2 ** 1000;
    rest -= 1000;
  }
  while (rest < -1000) {
    out *= 2 ** -1000;
    rest += 1000;
  }
  return out * 2 ** rest;
}

/** m·2^e rounded once to the nearest double (ties to even); keeps a sticky bit when it drops low bits. */
function round(m: bigint, e: number): number {
  if (m === 0n) return 0;
  const negative = m < 0n;
  let a = negative ? -m : m;
  let exponent = e;
  const excess = a.toString(2).length - 64;
  if (excess > 0) {
    const dropped = a & ((1n << BigInt(excess)) - 1n);
    a = (a >> BigInt(excess)) | (dropped === 0n ? 0n : 1n);
    exponent += excess;
  }
  const value = scale(Number(a), exponent); // Number() of ≤ 64 bits rounds to nearest-even once
  return negative ? -value : value;
}

/** a·b + c with a single rounding (VFMADD). */
export function fma(a: number, b: number, c: number): number {
  if (!Number.isFinite(a) || !Number.isFinite(b) || !Number.isFinite(c)) return a * b + c;
  const x = exact(a);
  const y = exact(b);
  const z = exact(c);
  const productE = x.e + y.e;
  const e = Math.min(productE, z.e);
  const sum = ((x.m * y.m) << BigInt(productE - e)) + (z.m << BigInt(z.e - e));
  if (sum === 0n) return a * b + c; // the sign of an exact zero follows IEEE addition
  return round(sum, e);
}

// The assembly's constants, as the doubles they round to.
const LOG2E = 1.4426950408889634;
const LN2U = 0.693147180559663; // the upper part of ln 2
const LN2L = 2.8235290563031577e-13; // the lower part
const OVERFLOW = 7.09782712893384e2;
const TAYLOR = [
  2.48015873015873e-5, 1.984126984126984e-4, 1.388888888888889e-3, 8.333333333333333e-3,
  4.1666666666666664e-2, 1.6666666666666666e-1, 0.5, 1.0,
];

/** CVTSD2SL under the default rounding mode: nearest, ties to even; out of range is the "indefinite" int. */
function toInt32(f: number): number {
  if (!(Math.abs(f) < 2 ** 31)) return -(2 ** 31);
  const r = Math.round(f);
  return r - f === 0.5 && r % 2 !== 0 ? r - 1 : r;
}

const powerOfTwo = (biased: number): number => {
  view.setBigUint64(0, BigInt(biased) << 52n);
  return view.getFloat64(0);
};

export function goExpAmd64(x: number): number {
  if (Number.isNaN(x) || x === Infinity) return x;
  if (x === -Infinity) return 0;
  if (x > OVERFLOW) return Infinity;
  const k = toInt32(LOG2E * x);
  let r = fma(-k, LN2U, x);
  r = fma(-k, LN2L, r);
  r *= 0.0625;
  let p = TAYLOR[0]!;
  for (const c of TAYLOR.slice(1)) p = fma(p, r, c);
  let y = r * p;
  for (let i = 0; i < 3; i++) y *= y + 2;
  y = fma(y, y + 2, 1);
  let biased = k + 0x3ff;
  if (biased >= 0x7ff) return Infinity;
  if (biased > 0) return y * powerOfTwo(biased);
  if (biased < -52) return 0;
  biased += 0x3fe;
  return y * powerOfTwo(biased) * powerOfTwo(1);
}
