// How numbers are shown: a port of attn_tutor/core/rounding.py (rounded half up from the shortest
// decimal that reads back as the same float, never -0.000), and Python's round(x, n).
(function (AT) {
  "use strict";

  // The shortest round-trip decimal of x (Python's repr, JavaScript's String) as [sign, digits, point]:
  // value = sign * 0.digits * 10^point.
  function decimalParts(x) {
    let text = String(Math.abs(x));
    let exponent = 0;
    const e = text.indexOf("e");
    if (e >= 0) {
      exponent = Number(text.slice(e + 1));
      text = text.slice(0, e);
    }
    let dot = text.indexOf(".");
    if (dot < 0) dot = text.length;
    const digits = text.replace(".", "");
    return [x < 0 || Object.is(x, -0) ? -1 : 1, digits, dot + exponent];
  }

  function roundHalfUpText(x, decimals) {
    const [sign, digits, point] = decimalParts(x);
    // digits as an integer scaled to `decimals` places, rounded half up (away from zero).
    const keep = point + decimals; // how many leading digits survive
    let kept;
    let roundUp = false;
    if (keep <= 0) {
      kept = "0";
      roundUp = keep === 0 && digits[0] >= "5";
    } else if (keep >= digits.length) {
      kept = digits + "0".repeat(keep - digits.length);
    } else {
      kept = digits.slice(0, keep);
      roundUp = digits[keep] >= "5";
    }
    let n = BigInt(kept) + (roundUp ? 1n : 0n);
    let body = n.toString();
    if (decimals > 0) {
      body = body.padStart(decimals + 1, "0");
      body = body.slice(0, body.length - decimals) + "." + body.slice(body.length - decimals);
    }
    const zero = n === 0n;
    return (sign < 0 && !zero ? "-" : "") + body;
  }

  function fmt(x, decimals = 3, missing = "—") {
    if (x === null || x === undefined || Number.isNaN(x)) return missing;
    if (!Number.isFinite(x)) return x > 0 ? "∞" : "-∞";
    return roundHalfUpText(x, decimals);
  }

  function fmtGiven(x, decimals = 3) {
    if (Number.isInteger(x) && Math.abs(x) < 1e15) return String(Math.trunc(x) + 0);
    const text = fmt(x, decimals);
    return text.includes(".") ? text.replace(/0+$/, "").replace(/\.$/, "") : text;
  }

  function fmtRow(values, decimals = 3) {
    return "(" + values.map((v) => fmt(v, decimals)).join(", ") + ")";
  }

  // core/rounding.py fmt_short: a number in a sentence, six significant digits rounded half up from
  // the shortest decimal (as fmt), laid out as Python's ".6g" ("83148.3", "1.23457e+06"), never -0.
  const SHORT_DIGITS = 6;

  function short(x) {
    if (Number.isNaN(x)) return "nan";
    if (!Number.isFinite(x)) return x > 0 ? "inf" : "-inf";
    if (x === 0) return "0";
    let [sign, digits, point] = decimalParts(x);
    const first = digits.search(/[1-9]/);
    digits = digits.slice(first);
    point -= first;
    if (digits.length > SHORT_DIGITS) {
      const up = digits[SHORT_DIGITS] >= "5";
      digits = (BigInt(digits.slice(0, SHORT_DIGITS)) + (up ? 1n : 0n)).toString();
      if (digits.length > SHORT_DIGITS) {  // 999999.5 -> 1000000
        digits = digits.slice(0, SHORT_DIGITS);
        point += 1;
      }
    }
    const text = digits.replace(/0+$/, "") || "0";
    const exponent = point - 1;
    let body;
    if (exponent >= -4 && exponent < SHORT_DIGITS) {
      if (point <= 0) body = "0." + "0".repeat(-point) + text;
      else if (point >= text.length) body = text + "0".repeat(point - text.length);
      else body = text.slice(0, point) + "." + text.slice(point);
    } else {
      body = text[0] + (text.length > 1 ? "." + text.slice(1) : "") + "e" + (exponent < 0 ? "-" : "+") +
        String(Math.abs(exponent)).padStart(2, "0");
    }
    return (sign < 0 ? "-" : "") + body;
  }

  // Python's round(x, places): the nearest, ties to even, judged on the exact binary value.
  function pyRound(x, places) {
    const wide = x.toFixed(20);
    const dot = wide.indexOf(".");
    const tail = wide.slice(dot + 1 + places);
    let text = x.toFixed(places);
    if (/^50*$/.test(tail)) {
      // an exact tie: toFixed rounded away from zero; Python keeps the even digit
      const down = wide.slice(0, dot + 1 + places);
      const last = Number(down[down.length - 1]);
      if (last % 2 === 0) text = down;
    }
    return Number(text) + 0;
  }

  // --- explain.result_sign: "=" when the numbers as shown give the printed result, else "≈" ---
  // Exact decimals as [BigInt n, scale]: value = n / 10^scale.

  const APPROX = "≈";

  function shown(text) {  // explain.shown: a number as printed ("0.248", "(-1)", "6"); null for "∞"
    const match = /^(-?)(\d*)(?:\.(\d*))?$/.exec(text.replace(/[()]/g, ""));
    if (!match || (match[2] === "" && !match[3])) return null;
    const fraction = match[3] || "";
    return [BigInt(match[1] + (match[2] + fraction || "0")), fraction.length];
  }

  const pow10 = (k) => 10n ** BigInt(k);
  const rescale = ([n, scale], to) => n * pow10(to - scale);

  function dot(pairs) {  // explain.dot: the sum of products of printed numbers, exactly
    let total = [0n, 0];
    for (const [a, b] of pairs) {
      const x = shown(a), y = shown(b);
      if (x === null || y === null) return null;
      const product = [x[0] * y[0], x[1] + y[1]];
      const scale = Math.max(total[1], product[1]);
      total = [rescale(total, scale) + rescale(product, scale), scale];
    }
    return { num: total[0], den: pow10(total[1]) };
  }

  function quotient(top, bottom) {  // explain.quotient, kept as an exact fraction
    const a = shown(top), b = shown(bottom);
    if (a === null || b === null || b[0] === 0n) return null;
    return { num: a[0] * pow10(b[1]), den: b[0] * pow10(a[1]) };
  }

  // num/den rounded half up (away from zero) to `decimals` places, as an integer count of 10^-decimals.
  function halfUpUnits(num, den, decimals) {
    if (den < 0n) { num = -num; den = -den; }
    const negative = num < 0n;
    const scaled = (negative ? -num : num) * pow10(decimals);
    let units = scaled / den;
    if ((scaled % den) * 2n >= den) units += 1n;
    return negative ? -units : units;
  }

  function resultSign(fromShown, exact, decimals) {
    if (fromShown === null || !Number.isFinite(exact)) return "=";
    const rounded = halfUpUnits(fromShown.num, fromShown.den, decimals);
    const expected = shown(roundHalfUpText(exact, decimals));
    return rounded === rescale(expected, decimals) ? "=" : APPROX;
  }

  // numbers.round_half_up as a float: float(round_half_up(x, places)) (grading.half_up).
  function roundHalfUp(x, places) { return Number(roundHalfUpText(x, places)) + 0; }

  AT.numbers = { fmt, fmtGiven, short, fmtRow, pyRound, roundHalfUp, APPROX, shown, dot, quotient, resultSign };
})(globalThis.AttnTutor = globalThis.AttnTutor || {});
