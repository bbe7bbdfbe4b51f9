// Korean particles chosen for the word they follow: a port of attn_tutor/core/particles.py
// (the rules are written out there). A catalogue sentence marks a particle by its form after a
// consonant in square brackets, "{text}[을]"; resolve() replaces each marker by 을 or 를 for
// the text before it. tests/e2e/test_practice_page_browser.py checks the port agrees with Python.
(function (AT) {
  "use strict";

  // marker -> [after a consonant, after a vowel, after ㄹ]
  const PARTICLES = {
    "을": ["을", "를", "을"],
    "이": ["이", "가", "이"],
    "은": ["은", "는", "은"],
    "과": ["과", "와", "과"],
    "으로": ["으로", "로", "로"],
    "이라는": ["이라는", "라는", "이라는"],
  };
  const MARKER = new RegExp("\\[(" + Object.keys(PARTICLES).sort((a, b) => b.length - a.length).join("|") + ")\\]");
  const VOWEL = null, RIEUL = "ㄹ", CONSONANT = "c";
  const SKIPPED = new Set(Array.from(" \t\u00a0'\"`’”»›」』〉》)]}>.,;:!?…。、/\\_-~·"));
  const SYMBOLS = { "%": VOWEL, "∞": VOWEL, "√": VOWEL, "(": VOWEL, "[": VOWEL, "{": VOWEL, "+": VOWEL, "−": VOWEL, "×": VOWEL, "²": CONSONANT, "³": CONSONANT };
  const DIGITS = { 0: CONSONANT, 1: RIEUL, 2: VOWEL, 3: CONSONANT, 4: VOWEL, 5: VOWEL, 6: CONSONANT, 7: RIEUL, 8: RIEUL, 9: VOWEL };
  const UNITS = [].concat(Array(11).fill(CONSONANT), Array(4).fill(VOWEL), Array(4).fill(CONSONANT));
  const LETTERS = { l: RIEUL, m: CONSONANT, n: CONSONANT };
  const SHORT_STOP = /(?:^|[^aeiou])(?:[aeiou]|oo|ou)(?:p|t|k|ck|b)$/;
  const isDigit = (ch) => ch !== undefined && ch.length === 1 && ch >= "0" && ch <= "9";

  function number(chars) {
    let start = chars.length;
    while (start && (isDigit(chars[start - 1]) || (chars[start - 1] === "," && start > 1 && isDigit(chars[start - 2])))) start -= 1;
    const digits = chars.slice(start).filter((ch) => ch !== ",");
    if (start > 1 && chars[start - 1] === "." && isDigit(chars[start - 2])) return DIGITS[digits[digits.length - 1]];
    const whole = digits.join("").replace(/^0+/, "");
    if (!whole) return DIGITS[0];
    const zeros = whole.length - whole.replace(/0+$/, "").length;
    if (zeros === 0) return DIGITS[whole[whole.length - 1]];
    return zeros <= UNITS.length ? UNITS[zeros - 1] : VOWEL;
  }

  function latinTail(chars) {
    const letters = [];
    for (let i = chars.length - 1; i >= 0; i -= 1) {
      const base = chars[i].normalize("NFKD").slice(0, 1);
      if (/^[A-Za-z]$/.test(base)) letters.unshift(base);
      else break;
    }
    return letters.join("");
  }

  function word(w) {
    let lower = w.toLowerCase();
    const spelled = w.length === 1 || !/[aeiouy]/.test(lower) || (w === w.toUpperCase() && w.length <= 5);
    if (spelled) return lower[lower.length - 1] in LETTERS ? LETTERS[lower[lower.length - 1]] : VOWEL;
    if (lower.endsWith("ng")) return CONSONANT;
    if (lower.length > 2 && lower.endsWith("e") && !"aeiouy".includes(lower[lower.length - 2])) {
      lower = lower.slice(0, -1);
      const last = lower[lower.length - 1];
      return last === "l" ? RIEUL : "mn".includes(last) ? CONSONANT : VOWEL;
    }
    const last = lower[lower.length - 1];
    if (last === "l") return RIEUL;
    if ("mn".includes(last) || SHORT_STOP.test(lower)) return CONSONANT;
    return VOWEL;
  }

  // How text ends read aloud: null (a vowel), "ㄹ", or "c" (another consonant).
  function ending(text) {
    const chars = Array.from(text);
    let end = chars.length;
    while (end && SKIPPED.has(chars[end - 1])) end -= 1;
    if (!end) {
      const stripped = Array.from(text.trim());
      return stripped.length ? (stripped[stripped.length - 1] in SYMBOLS ? SYMBOLS[stripped[stripped.length - 1]] : VOWEL) : VOWEL;
    }
    const ch = chars[end - 1];
    if (ch >= "\uac00" && ch <= "\ud7a3") {
      const final = (ch.codePointAt(0) - 0xac00) % 28;
      return final === 0 ? VOWEL : final === 8 ? RIEUL : CONSONANT;
    }
    if (ch >= "\u3131" && ch <= "\u314e") return ch === "ㄹ" ? RIEUL : CONSONANT;
    if (isDigit(ch)) return number(chars.slice(0, end));
    const letters = latinTail(chars.slice(0, end));
    if (letters) return word(letters);
    return ch in SYMBOLS ? SYMBOLS[ch] : VOWEL;
  }

  function attach(before, marker) {
    const [afterConsonant, afterVowel, afterRieul] = PARTICLES[marker];
    const sound = ending(before);
    return sound === VOWEL ? afterVowel : sound === RIEUL ? afterRieul : afterConsonant;
  }

  // A template with {placeholders} and [particle] markers, filled by fill(chunk) and resolved.
  function resolve(template, fill) {
    const parts = template.split(MARKER);
    let out = fill(parts[0]);
    for (let i = 1; i < parts.length; i += 2) out += attach(out, parts[i]) + fill(parts[i + 1]);
    return out;
  }

  AT.particles = { attach, ending, resolve };
})(globalThis.AttnTutor = globalThis.AttnTutor || {});
