// Reading what a student types: a port of attn_tutor/marking/answers.py, function for function.
// The rules are that module's docstring; tests/golden/marking.json holds this port equal
// to it (the Python tests and the browser test read the same cases). Never eval.
(function (AT) {
  "use strict";

  const MAX_LENGTH = 1000;
  const MAX_DEPTH = 20;
  const MAX_CHAIN = 60;
  const MAX_EXPONENT = 1e3;
  const MAX_MAGNITUDE = 1e12;
  const LIMIT_TEXT = "10^12";

  // An AnswerError: a catalogue key and its arguments (answers.* messages).
  class AnswerError extends Error {
    constructor(key, args) {
      super(key);
      this.key = key;
      this.args = args || {};
    }
  }

  // --- normalisation ------------------------------------------------------------------

  const SUPERSCRIPTS = { "⁰": "0", "¹": "1", "²": "2", "³": "3", "⁴": "4", "⁵": "5", "⁶": "6",
    "⁷": "7", "⁸": "8", "⁹": "9", "⁺": "+", "⁻": "-" };
  const AFTER_NFKC = {
    "\u2212": "-", "\u2010": "-", "\u2011": "-", "\u2012": "-", "\u2013": "-",
    "×": "*", "·": "*", "⋅": "*", "∙": "*", "∗": "*",
    "÷": "/", "∕": "/", "⁄": "/",
    "、": ",",
    "\u200b": "", "\u200c": "", "\u200d": "", "\u2060": "", "\ufeff": "",
  };
  const IME_WORDS = {};
  for (const [typed, word] of [["ㄷ", "e"], ["ㄸ", "e"], ["ㄷ테", "exp"], ["ㄴㅂㄱㅅ", "sqrt"], ["ㄴㅂㄳ", "sqrt"]]) {
    IME_WORDS[Array.from(typed).map((c) => c.normalize("NFKC")).join("")] = word;
  }
  const FUNCTIONS = ["sqrt", "exp"];
  const NOT_FINITE = ["nan", "inf", "infinity", "∞"];
  // Python's str.isspace(), exactly (JavaScript's \s differs: it has U+FEFF, lacks U+001C-1F and U+0085).
  const SPACES = new Set([0x9, 0xa, 0xb, 0xc, 0xd, 0x1c, 0x1d, 0x1e, 0x1f, 0x20, 0x85, 0xa0, 0x1680,
    0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a,
    0x2028, 0x2029, 0x202f, 0x205f, 0x3000]);
  const ASCII_SPACES = new Set(["\t", "\n", "\r", "\x0b", "\x0c", "\x1c", "\x1d", "\x1e", "\x1f"]);

  function isSpace(c) { return SPACES.has(c.codePointAt(0)); }
  function isAlpha(c) { return /^\p{L}$/u.test(c); }
  function isAscii(chars) { return chars.every((c) => c.codePointAt(0) < 128); }

  // The digits read and the fractions read as numbers: marking/digits.py's DIGITS and FRACTIONS, given to
  // the page as data (setNumerals), never this browser's Unicode tables. Until then: ASCII digits.
  let NUMERALS = { "0": "0", "1": "1", "2": "2", "3": "3", "4": "4", "5": "5", "6": "6", "7": "7", "8": "8", "9": "9" };
  const NOT_A_DIGIT = "\ufffd";

  function setNumerals(digits, fractions) {
    NUMERALS = Object.assign(Object.create(null), digits || {}, fractions || {});
  }

  function normaliseChar(char) {
    if (Object.prototype.hasOwnProperty.call(NUMERALS, char)) return NUMERALS[char];
    const piece = char.normalize("NFKC");
    if (/[0-9]/.test(piece)) return NOT_A_DIGIT;  // a digit of Unicode's (①, ₆, 𝟔, 𜳶), not of ours
    let out = "";
    for (const c of piece) out += isSpace(c) ? " " : (c in AFTER_NFKC ? AFTER_NFKC[c] : c);
    return out;
  }

  // [normalised code points, the index in the original (code points) of each]
  function normalise(original) {
    if (isAscii(original)) {
      return [original.map((c) => (ASCII_SPACES.has(c) ? " " : c)), original.map((_, i) => i)];
    }
    const out = [];
    const origin = [];
    let inSuperscript = false;
    original.forEach((char, index) => {
      let piece;
      if (char in SUPERSCRIPTS) {
        piece = (inSuperscript ? "" : "^(") + SUPERSCRIPTS[char];
        inSuperscript = true;
      } else {
        if (inSuperscript) {
          out.push(")");
          origin.push(index - 1);
          inSuperscript = false;
        }
        piece = normaliseChar(char);
      }
      for (const c of piece) {
        out.push(c);
        origin.push(index);
      }
    });
    if (inSuperscript) {
      out.push(")");
      origin.push(original.length - 1);
    }
    return [out, origin];
  }

  // --- tokens -------------------------------------------------------------------------

  const NUMBER = "number", WORD = "word", OP = "op", ROOT = "root", OPEN = "open", CLOSE = "close",
    COMMA = "comma", END = "end";
  const STARTS_OPERAND = [NUMBER, WORD, ROOT];
  const isDigit = (c) => c !== undefined && c >= "0" && c <= "9" && c.length === 1;

  function isHangul(char) {
    const code = char.codePointAt(0);
    return (code >= 0xac00 && code <= 0xd7a3) || (code >= 0x1100 && code <= 0x11ff) || (code >= 0x3130 && code <= 0x318f);
  }

  class Value {
    constructor(value, start, end, literal = null, isE = false) {
      this.value = value;
      this.start = start;
      this.end = end;
      this.literal = literal;
      this.isE = isE;
    }
  }

  // core/rounding.py fmt_short (a number in a message), ported in numbers.js.
  function short(x) { return AT.numbers.short(x); }

  class Reader {
    constructor(original) {
      this.original = Array.from(original);
      [this.text, this.origin] = normalise(this.original);
      this.tokens = [];
      this.i = 0;
      this.parens = 0;
      this.chain = 0;
      this.stop = 0;
    }

    // -- errors

    span(start, end) {
      if (this.origin.length === 0) return ["", 1];
      start = Math.min(start, this.origin.length - 1);
      end = Math.max(end, start + 1);
      const first = this.origin[start];
      const last = this.origin[Math.min(end, this.origin.length) - 1];
      return [this.original.slice(first, last + 1).join(""), first + 1];
    }

    fail(key, start, end, args = {}) {
      const [text, pos] = this.span(start, end);
      return new AnswerError(key, Object.assign({ text, pos }, args));
    }

    failAt(key, token, args = {}) {
      if (token.kind === END) return this.fail(key, this.text.length - 1, this.text.length, args);
      return this.fail(key, token.start, token.end, args);
    }

    // -- tokenizer

    tokenize() {
      const s = this.text;
      const n = s.length;
      let i = 0;
      let space = true;
      let depth = 0;
      while (i < n) {
        const c = s[i];
        if (c === " ") {
          space = true;
          i += 1;
          continue;
        }
        const start = i;
        let kind;
        if (isDigit(c) || (c === "." && i + 1 < n && isDigit(s[i + 1]))) {
          kind = NUMBER;
          i = this.number(i);
        } else if (c === "*" && i + 1 < n && s[i + 1] === "*") {
          i += 2;
          this.add(OP, "^", start, i, space);
          space = false;
          continue;
        } else if ("+-*/^%".includes(c) && c.length === 1) {
          kind = OP;
          i += 1;
        } else if (c === "√") {
          kind = ROOT;
          i += 1;
        } else if (c === "(" || c === "[") {
          kind = OPEN;
          i += 1;
          depth += 1;
          if (depth > MAX_DEPTH) throw this.fail("answers.too_deep", start, i, { limit: MAX_DEPTH });
        } else if (c === ")" || c === "]") {
          kind = CLOSE;
          i += 1;
          depth = Math.max(depth - 1, 0);
        } else if (c === ",") {
          kind = COMMA;
          i += 1;
        } else if (isHangul(c)) {
          while (i < n && isHangul(s[i])) i += 1;
          const word = IME_WORDS[s.slice(start, i).join("")];
          if (word === undefined) throw this.fail("answers.hangul", start, i);
          this.add(WORD, word, start, i, space);
          space = false;
          continue;
        } else if (isAlpha(c) || c === "_" || c === "∞") {
          while (i < n && (isAlpha(s[i]) || s[i] === "_") && !isHangul(s[i])) i += 1;
          i = Math.max(i, start + 1);
          const word = s.slice(start, i).join("").toLowerCase();
          if (NOT_FINITE.includes(word)) throw this.fail("answers.not_finite_word", start, i);
          if (word !== "e" && !FUNCTIONS.includes(word)) throw this.fail("answers.unknown_word", start, i);
          this.add(WORD, word, start, i, space);
          space = false;
          continue;
        } else if (c === ".") {
          throw this.fail("answers.bad_number", i, i + 1);
        } else {
          throw this.fail("answers.bad_character", i, i + 1);
        }
        this.add(kind, s.slice(start, i).join(""), start, i, space);
        space = false;
      }
      this.add(END, "", n, n, space);
    }

    add(kind, text, start, end, space) {
      if (this.tokens.length) this.tokens[this.tokens.length - 1].spaceAfter = space;
      this.tokens.push({ kind, text, start, end, spaceBefore: space, spaceAfter: false });
    }

    number(i) {
      const s = this.text, n = s.length, start = i;
      let points = 0;
      while (i < n && (isDigit(s[i]) || s[i] === ".")) {
        if (s[i] === ".") points += 1;
        i += 1;
      }
      if (points > 1) throw this.fail("answers.two_points", start, i);
      if (i < n && (s[i] === "e" || s[i] === "E")) {
        let j = i + 1;
        if (j < n && (s[j] === "+" || s[j] === "-")) j += 1;
        if (j < n && isDigit(s[j])) {
          while (j < n && isDigit(s[j])) j += 1;
          if (j < n && s[j] === ".") throw this.fail("answers.bad_number", start, j + 1);
          return j;
        }
        if (j > i + 1 || j >= n || " ,)]".includes(s[j])) throw this.fail("answers.bad_number", start, j);
      }
      return i;
    }

    // -- brackets

    checkBrackets() {
      const stack = [];
      const pairs = {};
      for (let index = 0; index < this.tokens.length; index++) {
        const token = this.tokens[index];
        if (token.kind === OPEN) {
          stack.push(token);
          if (stack.length > MAX_DEPTH) throw this.failAt("answers.too_deep", token, { limit: MAX_DEPTH });
          pairs[stack.length] = index;
        } else if (token.kind === CLOSE) {
          if (!stack.length) throw this.failAt("answers.unopened", token);
          const opener = stack.pop();
          if ((opener.text === "(") !== (token.text === ")")) {
            const [text, pos] = this.span(opener.start, opener.end);
            throw this.failAt("answers.mismatched", token, { open: text, open_pos: pos });
          }
          if (stack.length === 0 && pairs[1] === 0 && index === this.tokens.length - 2) return [1, index];
        }
      }
      if (stack.length) throw this.failAt("answers.unclosed", stack[stack.length - 1]);
      return [0, this.tokens.length - 1];
    }

    // -- parser

    peek(ahead = 0) { return this.tokens[Math.min(this.i + ahead, this.tokens.length - 1)]; }

    take() { return this.tokens[this.i++]; }

    cellBoundary() {
      const token = this.peek();
      if (this.parens > 0 || !token.spaceBefore) return false;
      if (STARTS_OPERAND.includes(token.kind) || (token.kind === OPEN && token.text === "(")) return true;
      if (token.kind === OP && (token.text === "+" || token.text === "-") && !token.spaceAfter) {
        const following = this.peek(1);
        return STARTS_OPERAND.includes(following.kind) || following.kind === OPEN ||
          (following.kind === OP && (following.text === "+" || following.text === "-"));
      }
      return false;
    }

    deeper(token) {
      this.chain += 1;
      if (this.chain > MAX_CHAIN) throw this.failAt("answers.too_deep", token, { limit: MAX_CHAIN });
    }

    row() {
      const [first, stop] = this.checkBrackets();
      if (this.tokens[0].kind === OPEN && this.tokens[0].text === "[" && first === 0) {
        throw this.failAt("answers.square_bracket", this.tokens[0]);
      }
      this.i = first;
      this.stop = stop;
      const values = [];
      if (first === stop || this.tokens[first].kind === END) throw new AnswerError("answers.empty");
      for (;;) {
        let token = this.peek();
        if (token.kind === COMMA) throw this.failAt("answers.empty_cell", token);
        values.push(this.cell());
        token = this.peek();
        if (this.i === stop) break;
        if (token.kind === COMMA) {
          this.take();
          if (this.i === stop) break;
          continue;
        }
        if (this.cellBoundary()) continue;
        throw this.unexpected(token);
      }
      return values;
    }

    unexpected(token) {
      if (token.kind === OPEN && token.text === "[") return this.failAt("answers.square_bracket", token);
      if (STARTS_OPERAND.includes(token.kind) || token.kind === OPEN) return this.failAt("answers.implicit_multiplication", token);
      return this.failAt("answers.unexpected", token);
    }

    cell() {
      const value = this.expr();
      const result = value.value + 0.0;
      if (!Number.isFinite(result)) throw this.fail("answers.too_large", value.start, value.end, { limit: LIMIT_TEXT });
      return Object.is(result, -0) ? 0 : result;
    }

    expr() {
      let left = this.term();
      let token;
      while ((token = this.peek()).kind === OP && (token.text === "+" || token.text === "-") && !this.cellBoundary()) {
        this.take();
        const right = this.term();
        const result = token.text === "+" ? left.value + right.value : left.value - right.value;
        left = this.bounded(result, left, right);
      }
      return left;
    }

    term() {
      let left = this.unary();
      let token;
      while ((token = this.peek()).kind === OP && (token.text === "*" || token.text === "/")) {
        this.take();
        const right = this.unary();
        let result;
        if (token.text === "*") {
          result = left.value * right.value;
        } else {
          if (right.value === 0) throw this.fail("answers.division_by_zero", left.start, right.end);
          result = left.value / right.value;
        }
        left = this.bounded(result, left, right);
      }
      return left;
    }

    unary() {
      return this.signed(() => this.power());
    }

    power() {
      const base = this.postfix();
      const token = this.peek();
      if (!(token.kind === OP && token.text === "^")) return base;
      this.take();
      this.deeper(token);
      const exponent = this.unary();
      this.chain -= 1;
      const start = base.start, end = exponent.end;
      const a = base.value, b = exponent.value;
      if (base.isE) return this.exp(b, start, end);
      if (Math.abs(b) > MAX_EXPONENT) {
        throw this.fail("answers.exponent_too_large", start, end, { exponent: short(b), limit: short(MAX_EXPONENT) });
      }
      if (a === 0) {
        if (b < 0) throw this.fail("answers.division_by_zero", start, end);
        return new Value(b === 0 ? 1.0 : 0.0, start, end);
      }
      if (a < 0 && !Number.isInteger(b)) throw this.fail("answers.negative_power", start, end);
      const limit = Math.max(MAX_MAGNITUDE, Math.abs(a), Math.abs(b));
      if (b * Math.log(Math.abs(a)) > Math.log(limit) + 1e-9) throw this.fail("answers.too_large", start, end, { limit: LIMIT_TEXT });
      return this.bounded(Math.pow(a, b), base, exponent);
    }

    exp(x, start, end) {
      if (x > Math.log(MAX_MAGNITUDE)) throw this.fail("answers.too_large", start, end, { limit: LIMIT_TEXT });
      return new Value(Math.exp(x), start, end);
    }

    postfix() {
      let value = this.primary();
      let token = this.peek();
      if (token.kind === OP && token.text === "%") {
        this.take();
        let percent;
        if (value.literal !== null) percent = percentOf(value.literal, value.value);
        else percent = value.value / 100;
        value = new Value(percent, value.start, token.end);
      }
      token = this.peek();
      if ((STARTS_OPERAND.includes(token.kind) || token.text === "(") && !this.cellBoundary()) {
        throw this.failAt("answers.implicit_multiplication", token);
      }
      return value;
    }

    primary() {
      const token = this.peek();
      if (token.kind === NUMBER) {
        this.take();
        const value = Number(token.text);
        if (!Number.isFinite(value)) throw this.failAt("answers.number_too_large", token);
        return new Value(value, token.start, token.end, token.text);
      }
      if (token.kind === WORD && token.text === "e") {
        this.take();
        return new Value(Math.E, token.start, token.end, null, true);
      }
      if (token.kind === ROOT || token.kind === WORD) {
        this.take();
        this.deeper(token);
        const argument = this.signedPrimary();
        this.chain -= 1;
        const start = token.start, end = argument.end;
        if (token.text === "exp") return this.exp(argument.value, start, end);
        if (argument.value < 0) throw this.fail("answers.sqrt_negative", start, end);
        return new Value(Math.sqrt(argument.value), start, end);
      }
      if (token.kind === OPEN && token.text === "(") {
        this.take();
        this.deeper(token);
        this.parens += 1;
        const inner = this.expr();
        this.parens -= 1;
        this.chain -= 1;
        const close = this.peek();
        if (close.kind === COMMA) throw this.failAt("answers.expected_close", close, { open_pos: this.span(token.start, token.end)[1] });
        if (close.kind !== CLOSE) throw this.unexpected(close);
        this.take();
        return new Value(inner.value, token.start, close.end);
      }
      if (token.kind === OPEN && token.text === "[") throw this.failAt("answers.square_bracket", token);
      if (token.kind === END || this.i === this.stop) {
        const previous = this.i > 0 ? this.tokens[this.i - 1] : token;
        throw this.failAt("answers.missing_number", previous);
      }
      throw this.failAt("answers.expected_number", token);
    }

    signedPrimary() {
      return this.signed(() => this.primary());
    }

    // Signs, each counted in the chain, before what `operand` reads.
    signed(operand) {
      const token = this.peek();
      if (token.kind === OP && (token.text === "+" || token.text === "-")) {
        this.take();
        this.deeper(token);
        const inner = this.signed(operand);
        this.chain -= 1;
        return new Value(token.text === "-" ? -inner.value : inner.value, token.start, inner.end);
      }
      return operand();
    }

    bounded(result, ...operands) {
      const start = operands[0].start, end = operands[operands.length - 1].end;
      const limit = Math.max(MAX_MAGNITUDE, ...operands.map((o) => Math.abs(o.value)));
      if (!(Math.abs(result) <= limit)) throw this.fail("answers.too_large", start, end, { limit: LIMIT_TEXT });
      return new Value(result, start, end);
    }
  }

  // float(Decimal(literal).scaleb(-2)): the typed digits shifted two places, read once.
  function percentOf(literal, value) {
    if (value === 0) return 0;
    const [mantissa, exponent] = literal.split(/[eE]/);
    return Number(mantissa + "e" + (parseInt(exponent || "0", 10) - 2));
  }

  function parseRow(text) {
    const length = Array.from(text).length;
    if (length > MAX_LENGTH) throw new AnswerError("answers.too_long", { length, limit: MAX_LENGTH });
    const reader = new Reader(text);
    reader.tokenize();
    if (reader.tokens[0].kind === END) throw new AnswerError("answers.empty");
    return reader.row();
  }

  function parseCells(text, expected) {
    const values = parseRow(text);
    if (values.length !== expected) {
      throw new AnswerError("answers.wrong_count", { given: values.length, expected, read: values.map(short).join(", ") });
    }
    return values;
  }

  // answers.command: "quit", "hint", "empty" or null (an answer) — NFKC, stripped of Python's
  // whitespace at both ends (str.strip: U+001C-1F and U+0085 are whitespace, U+FEFF is not), lowercased.
  const QUIT = ["q", "quit"];
  const HINT = ["?", "hint"];
  function command(text) {
    const chars = Array.from(text.normalize("NFKC"));
    let start = 0, end = chars.length;
    while (start < end && isSpace(chars[start])) start++;
    while (end > start && isSpace(chars[end - 1])) end--;
    const word = chars.slice(start, end).join("").toLowerCase();
    if (!word) return "empty";
    if (QUIT.includes(word)) return "quit";
    if (HINT.includes(word)) return "hint";
    return null;
  }

  AT.answers = { AnswerError, parseRow, parseCells, short, command, setNumerals, MAX_LENGTH };
})(globalThis.AttnTutor = globalThis.AttnTutor || {});
