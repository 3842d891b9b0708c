
"use strict";
// pgn960 report: draws the page from the JSON block #data. All archive text goes into the
// document as text nodes (textContent, createTextNode), never as markup.
(function () {
  const DATA = JSON.parse(document.getElementById("data").textContent);
  const SVG = "http://www.w3.org/2000/svg";
  const ALPHA = DATA.overview.alpha;

  function el(tag, attrs, ...kids) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined || v === false) continue;
      if (k === "class") e.className = v;
      else if (k === "text") e.textContent = v;
      else e.setAttribute(k, v === true ? "" : String(v));
    }
    for (const k of kids) if (k !== null && k !== undefined) e.append(k);
    return e;
  }
  function sv(tag, attrs, ...kids) {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (v === null || v === undefined) continue;
      if (k === "text") e.textContent = v;
      else e.setAttribute(k, String(v));
    }
    for (const k of kids) if (k !== null && k !== undefined) e.append(k);
    return e;
  }
  const num = (x) => (typeof x === "number" && isFinite(x));
  const fx = (x, d) => (num(x) ? x.toFixed(d) : "\u2013");
  const pct = (x) => (num(x) ? (100 * x).toFixed(1) + "%" : "\u2013");
  const signed = (x) => (num(x) ? (x > 0 ? "+" : "") + x.toFixed(3) : "\u2013");
  const fq = (q) => (!num(q) ? "\u2013" : q >= 0.001 ? q.toFixed(3) : q.toExponential(1));
  const int = (n) => (num(n) ? n.toLocaleString("en-US") : "\u2013");
  const pctInterval = (lo, hi) => (num(lo) && num(hi) ? (100 * lo).toFixed(1) + "\u2013" + (100 * hi).toFixed(1) + "%" : "\u2013");
  const interval = (lo, hi) => (num(lo) && num(hi) ? lo.toFixed(3) + "\u2013" + hi.toFixed(3) : "\u2013");
  const isSig = (q) => num(q) && q < ALPHA;

  // ==== BEGIN port of pgn960::stats (one source: kept equal to the Rust code by the
  // differential test batch/tests/it/report_stats_port.rs; counts are Numbers, exact below
  // 2^53 games). Each function names the Rust function it mirrors; same formulas, same
  // order of floating-point operations, same seeded SplitMix64 stream.
  const STATS = (function () {
    const ALPHA = 0.05; // significance::ALPHA
    const MIN_EXPECTED = 10; // exact::MIN_EXPECTED
    const TINY = 1e-24; // exact::TINY
    const PERMUTATION_MAX_GAMES = 2 ** 50; // exact::PERMUTATION_MAX_GAMES
    const STOP_AFTER_AS_LARGE = 50; // exact::STOP_AFTER_AS_LARGE
    const STOP_WHEN_NONE_AFTER = 99; // exact::STOP_WHEN_NONE_AFTER
    const URN_MAX_GAMES = 24; // exact::URN_MAX_GAMES
    const LN_FACTORIAL_TABLE = 2 ** 20; // exact::LN_FACTORIAL_TABLE
    const PERMUTATION_SEED = 960; // significance::PERMUTATION_SEED
    const Z95 = 1.959963984540054; // table::Z95
    const TWO32 = 4294967296;

    // The sum of an array from -0.0, as Rust's f64 `Iterator::sum`.
    const fsum = (xs) => xs.reduce((a, x) => a + x, -0);

    // ---- 64-bit words as 32-bit halves (no BigInt: the permutation test draws millions
    // of numbers).
    // floor(a·b / 2^32) of two 32-bit numbers, exact (products below 2^49).
    const mulHi32 = (a, b) => Math.floor((a * (b >>> 16) + Math.floor(a * (b & 0xffff) / 65536)) / 65536);
    // exact::SplitMix64: the state and the last number as 32-bit halves in a typed array
    // (numbers above 2^30 kept in closure variables would be boxed at every step).
    function splitMix64(seed) {
      const w = new Uint32Array(4); // state hi, lo; last number hi, lo
      w[0] = Math.floor(seed / TWO32); w[1] = seed % TWO32;
      // SplitMix64::next_u64, into w[2], w[3].
      function next() {
        const l = w[1] + 0x7f4a7c15;
        const sh = (w[0] + 0x9e3779b9 + (l >= TWO32 ? 1 : 0)) >>> 0, sl = l >>> 0;
        w[0] = sh; w[1] = sl;
        let zh = (sh ^ (sh >>> 30)) >>> 0, zl = (sl ^ ((sl >>> 30) | (sh << 2))) >>> 0;
        let h = (mulHi32(zl, 0x1ce4e5b9) + Math.imul(zh, 0x1ce4e5b9) + Math.imul(zl, 0xbf58476d)) >>> 0;
        zl = Math.imul(zl, 0x1ce4e5b9) >>> 0; zh = h;
        const xl = (zl ^ ((zl >>> 27) | (zh << 5))) >>> 0, xh = (zh ^ (zh >>> 27)) >>> 0;
        h = (mulHi32(xl, 0x133111eb) + Math.imul(xh, 0x133111eb) + Math.imul(xl, 0x94d049bb)) >>> 0;
        zl = Math.imul(xl, 0x133111eb) >>> 0; zh = h;
        w[3] = zl ^ ((zl >>> 31) | (zh << 1)); w[2] = zh ^ (zh >>> 31);
      }
      // SplitMix64::below: (next · n) >> 64, for n below 2^53.
      function below(n) {
        next();
        const rh = w[2], rl = w[3];
        if (n < TWO32) {
          const c = mulHi32(rl, n);
          return Math.floor((rh * (n >>> 16) + Math.floor((rh * (n & 0xffff) + c) / 65536)) / 65536);
        }
        // n = nh·2^32 + nl: the high words of the 128-bit product, column by column.
        const nh = Math.floor(n / TWO32), nl = n % TWO32;
        const lo = (a, b) => Math.imul(a, b) >>> 0;
        const h0 = mulHi32(rl, nl), h1 = mulHi32(rh, nl), l1 = lo(rh, nl), h2 = mulHi32(rl, nh), l2 = lo(rl, nh), h3 = mulHi32(rh, nh), l3 = lo(rh, nh);
        const c1 = Math.floor((h0 + l1 + l2) / TWO32);
        const s2 = h1 + h2 + l3 + c1;
        return (h3 + Math.floor(s2 / TWO32)) * TWO32 + (s2 % TWO32);
      }
      // exact::uniform: 53 random bits in [0, 1).
      function uniform() {
        next();
        const rh = w[2], rl = w[3];
        return (rh * 2097152 + Math.floor(rl / 2048)) * (1 / 9007199254740992);
      }
      // The next 64 bits as [hi, lo] (for tests).
      function word() { next(); return [w[2], w[3]]; }
      return { next: word, below, uniform };
    }

    // ---- special functions, as statrs 0.18 computes them
    const ERF_AN = [0.00337916709551257388990745, -0.00073695653048167948530905, -0.374732337392919607868241, 0.0817442448733587196071743, -0.0421089319936548595203468, 0.0070165709512095756344528, -0.00495091255982435110337458, 0.000871646599037922480317225];
    const ERF_AD = [1.0, -0.218088218087924645390535, 0.412542972725442099083918, -0.0841891147873106755410271, 0.0655338856400241519690695, -0.0120019604454941768171266, 0.00408165558926174048329689, -0.000615900721557769691924509];
    const GAMMA_R = 10.900511;
    const GAMMA_DK = [2.48574089138753565546e-5, 1.05142378581721974210, -3.45687097222016235469, 4.51227709466894823700, -2.98285225323576655721, 1.05639711577126713077, -1.95428773191645869583e-1, 1.70970543404441224307e-2, -5.71926117404305781283e-4, 4.63399473359905636708e-6, -2.71994908488607703910e-9];
    const LN_2_SQRT_E_OVER_PI = 0.6207822376352452223455184457816472122518527279025978;
    // statrs evaluate::polynomial.
    function polynomial(z, c) {
      let sum = c[c.length - 1];
      for (let i = c.length - 2; i >= 0; i--) sum = c[i] + z * sum;
      return sum;
    }
    // statrs erf::erfc for 0 <= x < 0.5 (the only arguments normalTwoSidedP gives it).
    function erfcSmall(x) {
      const erf = x < 1e-10 ? x * 1.125 + x * 0.003379167095512573896158903121545171688 : x * 1.125 + x * polynomial(x, ERF_AN) / polynomial(x, ERF_AD);
      return 1.0 - erf;
    }
    // statrs gamma::ln_gamma for x >= 0.5.
    function lnGamma(x) {
      let s = GAMMA_DK[0];
      for (let i = 1; i < GAMMA_DK.length; i++) s = s + GAMMA_DK[i] / (x + i - 1.0);
      return Math.log(s) + LN_2_SQRT_E_OVER_PI + (x - 0.5) * Math.log((x - 0.5 + GAMMA_R) / Math.E);
    }
    // statrs gamma::checked_gamma_lr (a, x > 0).
    function gammaLr(a, x) {
      const eps = 0.000000000000001, big = 4503599627370496.0, bigInv = 2.22044604925031308085e-16;
      if (Math.abs(a) <= 0.0000000000000011102230246251565) return 1.0;
      if (Math.abs(x) <= 0.0000000000000011102230246251565) return 0.0;
      const ax = a * Math.log(x) - x - lnGamma(a);
      if (ax < -709.78271289338399) return a < x ? 1.0 : 0.0;
      if (x <= 1.0 || x <= a) {
        let r2 = a, c2 = 1.0, ans2 = 1.0;
        for (;;) {
          r2 += 1.0; c2 *= x / r2; ans2 += c2;
          if (c2 / ans2 <= eps) break;
        }
        return Math.exp(ax) * ans2 / a;
      }
      let y = 1.0 - a, z = x + y + 1.0, c = 0;
      let p3 = 1.0, q3 = x, p2 = x + 1.0, q2 = z * x, ans = p2 / q2;
      for (;;) {
        y += 1.0; z += 2.0; c += 1;
        const yc = y * c;
        const p = p2 * z - p3 * yc, q = q2 * z - q3 * yc;
        p3 = p2; p2 = p; q3 = q2; q2 = q;
        if (Math.abs(p) > big) { p3 *= bigInv; p2 *= bigInv; q3 *= bigInv; q2 *= bigInv; }
        if (q !== 0.0) {
          const next = p / q, error = Math.abs((ans - next) / next);
          ans = next;
          if (error <= eps) break;
        }
      }
      return 1.0 - Math.exp(ax) * ans;
    }
    // statrs gamma::checked_gamma_ur (a, x > 0, finite).
    function gammaUr(a, x) {
      const eps = 0.000000000000001, big = 4503599627370496.0, bigInv = 2.22044604925031308085e-16;
      if (x < 1.0 || x <= a) return 1.0 - gammaLr(a, x);
      let ax = a * Math.log(x) - x - lnGamma(a);
      if (ax < -709.78271289338399) return a < x ? 0.0 : 1.0;
      ax = Math.exp(ax);
      let y = 1.0 - a, z = x + y + 1.0, c = 0.0;
      let pkm2 = 1.0, qkm2 = x, pkm1 = x + 1.0, qkm1 = z * x, ans = pkm1 / qkm1;
      for (;;) {
        y += 1.0; z += 2.0; c += 1.0;
        const yc = y * c;
        const pk = pkm1 * z - pkm2 * yc, qk = qkm1 * z - qkm2 * yc;
        pkm2 = pkm1; pkm1 = pk; qkm2 = qkm1; qkm1 = qk;
        if (Math.abs(pk) > big) { pkm2 *= bigInv; pkm1 *= bigInv; qkm2 *= bigInv; qkm1 *= bigInv; }
        if (qk !== 0.0) {
          const r = pk / qk, t = Math.abs((ans - r) / r);
          ans = r;
          if (t <= eps) break;
        }
      }
      return ans * ax;
    }
    // significance::chi2_sf (null for df = 0 or NaN x).
    function chi2Sf(x, df) {
      if (df === 0 || Number.isNaN(x)) return null;
      if (x <= 0.0) return 1.0;
      if (x === Infinity) return 0.0;
      return gammaUr(df / 2.0, x / 2.0);
    }
    // significance::normal_two_sided_p.
    function normalTwoSidedP(z) {
      const x = Math.abs(z) / Math.SQRT2;
      if (Number.isNaN(x) || x < 0.5) return erfcSmall(x);
      const p = chi2Sf(z * z, 1);
      return p === null ? NaN : p;
    }

    // ---- exact.rs
    // exact::hypergeometric: [first, probabilities].
    function hypergeometric(pop, succ, draws) {
      const lo = Math.max(draws + succ - pop, 0), hi = Math.min(succ, draws);
      if (lo >= hi) return [lo, [1.0]];
      const mode = Math.min(Math.max(Math.floor((draws + 1.0) * (succ + 1.0) / (pop + 2.0)), lo), hi);
      const up = [1.0];
      let k = mode, w = 1.0;
      while (k < hi) {
        w *= (succ - k) * (draws - k) / ((k + 1.0) * (pop - succ - draws + k + 1.0));
        if (w < TINY) break;
        up.push(w); k += 1;
      }
      const down = [];
      k = mode; w = 1.0;
      while (k > lo) {
        w *= k * (pop - succ - draws + k) / ((succ - k + 1.0) * (draws - k + 1.0));
        if (w < TINY) break;
        down.push(w); k -= 1;
      }
      const weights = down.reverse().concat(up);
      const total = fsum(weights);
      return [mode - down.length, weights.map((x) => x / total)];
    }
    // exact::half_point_pmf: [first h, P(h) from it on], or null.
    function halfPointPmf(n, totals) {
      const total = totals[0] + totals[1] + totals[2];
      if (n > total) return null;
      const HALF = [2, 1, 0];
      const [a, b, c] = [0, 1, 2].sort((i, j) => totals[i] - totals[j]);
      const hs = [], ws = [];
      const [aFirst, aW] = hypergeometric(total, totals[a], n);
      for (let i = 0; i < aW.length; i++) {
        const ka = aFirst + i, rest = n - ka;
        const [bFirst, bW] = hypergeometric(total - totals[a], totals[b], rest);
        for (let j = 0; j < bW.length; j++) {
          const kb = bFirst + j, kc = rest - kb;
          hs.push(HALF[a] * ka + HALF[b] * kb + HALF[c] * kc);
          ws.push(aW[i] * bW[j]);
        }
      }
      let first = Infinity, last = -Infinity;
      for (const h of hs) { if (h < first) first = h; if (h > last) last = h; }
      const pmf = new Array(last - first + 1).fill(0.0);
      for (let i = 0; i < hs.length; i++) pmf[hs[i] - first] += ws[i];
      return [first, pmf];
    }
    // exact::two_sided_p.
    function twoSidedP(first, pmf, mean, observed) {
      const distance = Math.abs(observed - mean);
      const tolerance = 1e-9 * Math.max(distance, 1.0);
      let p = -0;
      for (let i = 0; i < pmf.length; i++) if (Math.abs(first + i - mean) >= distance - tolerance) p += pmf[i];
      return Math.min(p, 1.0);
    }
    // exact::convolve.
    function convolve(a, b) {
      if (!a[1].length || !b[1].length) return [a[0] + b[0], []];
      const out = new Array(a[1].length + b[1].length - 1).fill(0.0);
      for (let i = 0; i < a[1].length; i++) {
        const x = a[1][i];
        if (!(x > 0.0)) continue;
        for (let j = 0; j < b[1].length; j++) out[i + j] += x * b[1][j];
      }
      return [a[0] + b[0], out];
    }
    // exact::normal_holds.
    function normalHolds(n, totals) {
      const total = fsum(totals), rest = total - n;
      return totals.every((t) => t <= 0 || (n * t / total >= MIN_EXPECTED && rest * t / total >= MIN_EXPECTED));
    }
    // exact::pearson_chi2.
    function pearsonChi2(rows) {
      const col = [0.0, 0.0, 0.0];
      for (const r of rows) for (let c = 0; c < 3; c++) col[c] += r[c];
      const n = fsum(col);
      let chi2 = 0.0;
      for (const r of rows) {
        const row = fsum(r);
        for (let c = 0; c < 3; c++) {
          const e = row * col[c] / n;
          if (e > 0.0) chi2 += (r[c] - e) * (r[c] - e) / e;
        }
      }
      return chi2;
    }
    // exact::permutations_for.
    const permutationsFor = (rows) => Math.min(Math.max(Math.floor(100000000 / Math.max(rows, 1)), 199), 999);
    // exact::LnFactorials.
    function lnFactorials(n) {
      const table = [0.0];
      let sum = 0.0;
      for (let k = 1; k <= Math.min(n, LN_FACTORIAL_TABLE); k++) { sum += Math.log(k); table.push(sum); }
      const get = (k) => (k < table.length ? table[k] : k <= 170 ? NaN : lnGamma(k + 1.0));
      return { choose: (n, k) => get(n) - get(k) - get(n - k) };
    }
    // exact::sample_hypergeometric.
    function sampleHypergeometric(pop, succ, draws, lnf, rng) {
      const lo = Math.max(draws + succ - pop, 0), hi = Math.min(succ, draws);
      if (lo >= hi) return lo;
      const fails = pop - succ - draws;
      const mode = Math.min(Math.max(Math.floor((draws + 1.0) * (succ + 1.0) / (pop + 2.0)), lo), hi);
      const atMode = Math.exp(lnf.choose(succ, mode) + lnf.choose(pop - succ, draws - mode) - lnf.choose(pop, draws));
      let u = rng.uniform() - atMode;
      let up = mode, upP = atMode, down = mode, downP = atMode;
      while (u > 0.0) {
        let moved = false;
        if (up < hi) {
          const k = up;
          upP *= (succ - k) * (draws - k) / ((k + 1.0) * (fails + k + 1.0));
          up += 1; u -= upP;
          if (u <= 0.0) return up;
          moved = true;
        }
        if (down > lo) {
          const k = down;
          downP *= k * (fails + k) / ((succ - k + 1.0) * (draws - k + 1.0));
          down -= 1; u -= downP;
          if (u <= 0.0) return down;
          moved = true;
        }
        if (!moved) return mode;
      }
      return mode;
    }
    // exact::PermutedStratum.
    function permutedStratum(rows) {
      const sizes = rows.map((r) => r[0] + r[1] + r[2]);
      const totals = [0, 0, 0];
      for (const r of rows) for (let c = 0; c < 3; c++) totals[c] += r[c];
      const inv = sizes.map((n) => (n > 0 ? 1.0 / n : 0.0));
      const [a, b, c] = totals.map((t) => (t > 0 ? 1.0 / t : 0.0));
      const games = totals[0] + totals[1] + totals[2];
      // PermutedStratum::chi2 of rows given one by one by `row(i)`.
      const chi2 = (row) => {
        let sum = -0;
        for (let i = 0; i < sizes.length; i++) {
          const [x, y, z] = row(i);
          sum += inv[i] * (x * x * a + y * y * b + z * z * c);
        }
        return games * sum - games;
      };
      // PermutedStratum::sample_chi2, the rows drawn and summed one by one (no arrays).
      const last = Math.max(sizes.length - 1, 0);
      const sample = (lnf, rng) => {
        let l0 = totals[0], l1 = totals[1], l2 = totals[2];
        let pop = l0 + l1 + l2, sum = -0;
        for (let i = 0; i < sizes.length; i++) {
          const n = sizes[i];
          let x = 0, y = 0, z = 0;
          if (i === last) { x = l0; y = l1; z = l2; }
          else if (n <= URN_MAX_GAMES) {
            for (let k = 0; k < n; k++) {
              const r = rng.below(pop - k);
              if (r < l0) { x += 1; l0 -= 1; } else if (r < l0 + l1) { y += 1; l1 -= 1; } else { z += 1; l2 -= 1; }
            }
          } else {
            x = sampleHypergeometric(pop, l0, n, lnf, rng);
            y = sampleHypergeometric(pop - l0, l1, n - x, lnf, rng);
            z = n - x - y;
            l0 -= x; l1 -= y; l2 -= z;
          }
          pop -= n;
          sum += inv[i] * (x * x * a + y * y * b + z * z * c);
        }
        return games * sum - games;
      };
      return { games, chi2, sample };
    }
    // exact::permutation_chi2_p.
    function permutationChi2P(strata, maxPermutations, seed) {
      const statistic = fsum(strata.map(pearsonChi2));
      const parts = strata.map(permutedStratum);
      const largest = parts.reduce((m, s) => Math.max(m, s.games), 0);
      const lnf = lnFactorials(largest);
      const observed = fsum(parts.map((p, s) => p.chi2((i) => strata[s][i])));
      const tolerance = 1e-9 * Math.max(Math.abs(observed), 1.0);
      const rng = splitMix64(seed);
      let asLarge = 0;
      for (let run = 1; run <= maxPermutations; run++) {
        const permuted = fsum(parts.map((p) => p.sample(lnf, rng)));
        if (permuted >= observed - tolerance) asLarge += 1;
        if (asLarge === 0 && run === STOP_WHEN_NONE_AFTER && run < maxPermutations) return { statistic, p: 1.0 / (1 + run), permutations: run };
        if (asLarge === STOP_AFTER_AS_LARGE && run < maxPermutations) return { statistic, p: asLarge / run, permutations: run };
      }
      return { statistic, p: (1 + asLarge) / (1 + maxPermutations), permutations: maxPermutations };
    }

    // ---- significance.rs (rows are [W, D, L])
    const games = (r) => r[0] + r[1] + r[2];
    // Wdl::score.
    const score = (r) => { const n = fsum(r); return n > 0.0 ? (r[0] + 0.5 * r[1]) / n : null; };
    // significance::column_totals.
    function columnTotals(rows) {
      const t = [0, 0, 0];
      for (const r of rows) { t[0] += r[0]; t[1] += r[1]; t[2] += r[2]; }
      return t;
    }
    // significance::pooled.
    function pooled(rows) {
      const total = [0.0, 0.0, 0.0];
      let g = 0;
      for (const r of rows) { for (let c = 0; c < 3; c++) total[c] += r[c]; g += games(r); }
      const n = fsum(total);
      if (n === 0.0) return { games: g, score: null, sd: 0.0 };
      const mean = (total[0] + 0.5 * total[1]) / n;
      const oneOutcome = total.filter((t) => t > 0.0).length === 1;
      const v = oneOutcome ? 0.0 : fsum([1.0, 0.5, 0.0].map((x, c) => total[c] * (x - mean) * (x - mean))) / n;
      return { games: g, score: mean, sd: Math.sqrt(v) };
    }
    // Slice::moments (row in one stratum with the stratum's totals).
    function moments(row, totals) {
      const n = fsum(row), bigN = totals[0] + totals[1] + totals[2];
      const [w, d, l] = totals;
      const ms = (w + 0.5 * d) / bigN;
      const vs = (w * ((1.0 - ms) * (1.0 - ms)) + d * ((0.5 - ms) * (0.5 - ms)) + l * (ms * ms)) / bigN;
      const v = totals.filter((t) => t > 0).length === 1 ? 0.0 : vs;
      return [n * (2.0 * w + d) / bigN, 4.0 * v * n * (bigN - n) / bigN];
    }
    // significance::row_test: slices are [stratum index, row, totals].
    function rowTest(slices, cache) {
      const row = [0, 0, 0];
      for (const [, r] of slices) for (let c = 0; c < 3; c++) row[c] += r[c];
      const t = { games: games(row), score: score(row), z: null, p: null, q: null, method: null };
      if (!slices.some(([, r, tot]) => games(r) < tot[0] + tot[1] + tot[2])) return t;
      let mean = 0.0, v = 0.0, diff = 0.0;
      for (const [, r, tot] of slices) {
        const [m, vv] = moments(r, tot);
        const bigN = tot[0] + tot[1] + tot[2], bigH = 2.0 * tot[0] + tot[1];
        diff += ((2.0 * r[0] + r[1]) * bigN - bigH * fsum(r)) / bigN;
        mean += m; v += vv;
      }
      const z = v > 0.0 ? diff / Math.sqrt(v) : 0.0;
      t.z = z;
      if (slices.every(([, r, tot]) => normalHolds(games(r), tot)) && v > 0.0) {
        t.p = normalTwoSidedP(z); t.method = "normal";
        return t;
      }
      t.method = "exact";
      if (v === 0.0) { t.p = 1.0; return t; }
      let law = [0, [1.0]];
      for (const [s, r, tot] of slices) {
        const key = s + ":" + games(r);
        if (!cache.has(key)) cache.set(key, halfPointPmf(games(r), tot));
        const pmf = cache.get(key);
        if (pmf === null) return t;
        law = convolve(law, pmf);
      }
      t.p = twoSidedP(law[0], law[1], mean, 2 * row[0] + row[1]);
      return t;
    }
    // significance::bh_q_values (null stays null).
    function bhQValues(p) {
      const present = [];
      p.forEach((x, i) => { if (x !== null && !Number.isNaN(x)) present.push([i, x]); });
      present.sort((a, b) => (a[1] - b[1]) || (Object.is(a[1], -0) - Object.is(b[1], -0)) || (a[0] - b[0]));
      const m = present.length;
      const q = p.map(() => null);
      let running = 1.0;
      for (let rank = m - 1; rank >= 0; rank--) {
        const [i, x] = present[rank];
        running = Math.min(running, x * m / (rank + 1));
        q[i] = running;
      }
      return q;
    }
    // significance::stratified_sp_tests.
    function stratifiedSpTests(strata) {
      const rows = strata.reduce((m, s) => Math.max(m, s.length), 0);
      const totals = strata.map(columnTotals);
      const cache = new Map();
      const tests = [];
      for (let i = 0; i < rows; i++) {
        const slices = [];
        strata.forEach((s, k) => { const r = s[i]; if (r && games(r) > 0) slices.push([k, r, totals[k]]); });
        tests.push(rowTest(slices, cache));
      }
      bhQValues(tests.map((t) => t.p)).forEach((q, i) => { tests[i].q = q; });
      return tests;
    }
    // significance::stratum_chi2.
    function stratumChi2(rows) {
      const totals = columnTotals(rows);
      const cols = [0, 1, 2].filter((c) => totals[c] > 0);
      const kept = rows.filter((r) => games(r) > 0);
      if (kept.length < 2 || cols.length < 2) return null;
      const n = fsum(totals);
      let minExpected = Infinity, below5 = 0;
      for (const r of kept) {
        const row = fsum(r);
        for (const c of cols) {
          const e = row * totals[c] / n;
          minExpected = Math.min(minExpected, e);
          if (e < 5.0) below5 += 1;
        }
      }
      return { rows: kept, kept: kept.length, outcomes: cols.length, cells: kept.length * cols.length, minExpected, below5 };
    }
    // significance::stratified_homogeneity.
    function stratifiedHomogeneity(strata) {
      const parts = strata.map(stratumChi2).filter((s) => s !== null);
      if (!parts.length) return null;
      const df = parts.reduce((a, s) => a + (s.kept - 1) * (s.outcomes - 1), 0);
      const cochran = parts.every((s) => s.minExpected >= 1.0 && s.below5 * 5 <= s.cells);
      const tables = parts.map((s) => s.rows);
      let g = 0;
      for (const t of tables) for (const r of t) g += games(r);
      let chi2, p, permutations = null;
      if (cochran || g > PERMUTATION_MAX_GAMES) {
        chi2 = fsum(tables.map(pearsonChi2));
        p = chi2Sf(chi2, df);
        if (p === null) return null;
      } else {
        const b = permutationsFor(tables.reduce((a, t) => a + t.length, 0));
        const t = permutationChi2P(tables, b, PERMUTATION_SEED);
        chi2 = t.statistic; p = t.p; permutations = t.permutations;
      }
      const all = columnTotals(strata.flat());
      const width = strata.reduce((m, s) => Math.max(m, s.length), 0);
      let rows = 0;
      for (let i = 0; i < width; i++) if (strata.some((s) => s[i] && games(s[i]) > 0)) rows += 1;
      let se = null;
      if (permutations !== null) {
        const floor = 1.0 / (permutations + 1);
        const pc = Math.min(Math.max(p, floor), 1.0 - floor);
        se = Math.sqrt(pc * (1.0 - pc) / permutations);
      }
      return { chi2, df, p, rows, outcomes: all.filter((t) => t > 0).length, min_expected: parts.reduce((m, s) => Math.min(m, s.minExpected), Infinity), cells_below_5: parts.reduce((a, s) => a + s.below5, 0), method: permutations !== null ? "permutation" : "chi-square", permutations, monte_carlo_se: se, strata: parts.length };
    }

    // ---- the printed form: Rust's `{:.N}` and `{:.Ne}` round exact ties to even
    // (JavaScript's toFixed rounds them up); the digits otherwise agree.
    function rustRound(text, keep) {
      // `text`: an exact decimal expansion with `keep` digits kept after the point when
      // cut; returns null unless the rest is exactly one half.
      const dot = text.indexOf(".");
      const rest = text.slice(dot + 1 + keep);
      return /^50*$/.test(rest) ? rest : null;
    }
    // Rust's format!("{x:.d}").
    function fixed(x, d) {
      const exact = x.toFixed(Math.min(100, d + 25));
      if (rustRound(exact, d) === null) return x.toFixed(d);
      const cut = exact.slice(0, exact.indexOf(".") + 1 + d).replace(/\.$/, "");
      const last = Number(cut.replace(/[^0-9]/g, "").slice(-1));
      return last % 2 === 0 ? cut : x.toFixed(d);
    }
    // Rust's format!("{x:.de}") ("1.2e-5", "3.0e0").
    function exponent(x, d) {
      const exact = x.toExponential(Math.min(100, d + 25));
      const [mant, e] = exact.split("e");
      let out = x.toExponential(d);
      if (rustRound(mant, d) !== null && Number(mant.slice(0, mant.indexOf(".") + 1 + d).replace(/[^0-9]/g, "").slice(-1)) % 2 === 0) {
        out = mant.slice(0, mant.indexOf(".") + 1 + d).replace(/\.$/, "") + "e" + e;
      }
      return out.replace("e+", "e");
    }
    // significance::fmt_p.
    const fmtP = (p) => (p >= 0.001 ? fixed(p, 3) : exponent(p, 1));
    // significance::homogeneity_text.
    function homogeneityText(h) {
      const head = `chi-square ${fixed(h.chi2, 1)} on ${h.df} df`;
      if (h.permutations !== null && h.monte_carlo_se !== null) return `${head}, permutation p = ${fmtP(h.p)} (${h.permutations} permutations, Monte Carlo standard error ${fixed(h.monte_carlo_se, 3)})`;
      return `${head}, p = ${fmtP(h.p)}`;
    }
    // significance::methods_text.
    function methodsText(tests) {
      const count = (m) => tests.filter((t) => t.method === m).length;
      return `per-row tests: ${count("exact")} exact, ${count("normal")} normal`;
    }
    // significance::verdict_naming, rows named "SP i".
    function verdict(h, tests) {
      const name = (i) => "SP " + i;
      let lowest = null;
      tests.forEach((t, i) => { if (t.q !== null && (lowest === null || t.q < lowest[1])) lowest = [i, t.q]; });
      const significant = tests.filter((t) => t.q !== null && t.q < ALPHA).length;
      const hRejects = h !== null && h.p < ALPHA;
      const hText = h !== null ? homogeneityText(h) : null;
      const qText = lowest !== null ? `lowest q = ${fmtP(lowest[1])} at ${name(lowest[0])}; ${methodsText(tests)}` : null;
      const others = significant <= 1 ? "" : ` and ${significant - 1} others`;
      const at = lowest !== null ? name(lowest[0]) : "";
      let text;
      if (hRejects && significant > 0) {
        text = `Yes: start positions differ beyond chance: the W/D/L rates are not homogeneous (${hText || ""}), and white's score at ${at}${others} differs from the pooled score at a 5% false discovery rate (${qText || ""}).`;
      } else if (hRejects) {
        text = `Yes, taken together: the W/D/L rates differ across start positions beyond chance (${hText || ""}), though no single SP's white score differs from the pooled score at a 5% false discovery rate (${qText || "no SP tested"}).`;
      } else if (significant > 0) {
        text = `Yes: white's score at ${at}${others} differs from the pooled score beyond chance at a 5% false discovery rate (${qText || ""}), though the W/D/L rates taken together do not (${hText || "no homogeneity test"}).`;
      } else if (lowest === null && h === null) {
        text = "No test possible: the table needs games in at least two start positions.";
      } else {
        text = `No: nothing here shows any start position differing beyond chance (${hText || "homogeneity not testable: every game had the same result"}; ${qText || "no SP tested"}).`;
      }
      return { differs: hRejects || significant > 0, significant, lowest_q: lowest, text, caveat: null };
    }
    // significance::analyse.
    function analyse(rows) {
      const tests = stratifiedSpTests([rows]);
      const h = stratifiedHomogeneity([rows]);
      return { pooled: pooled(rows), tests, homogeneity: h, verdict: verdict(h, tests) };
    }
    // significance::analyse_within (`by`: "event", "time control").
    function analyseWithin(strata, by) {
      const width = strata.reduce((m, s) => Math.max(m, s.length), 0);
      const whole = [];
      for (let i = 0; i < width; i++) {
        const r = [0, 0, 0];
        for (const s of strata) if (s[i]) for (let c = 0; c < 3; c++) r[c] += s[i][c];
        whole.push(r);
      }
      const withGames = strata.filter((s) => s.some((r) => games(r) > 0));
      const one = analyse(whole);
      if (withGames.length < 2) {
        one.verdict.text = `${one.verdict.text} (Not stratified: the games share one ${by}.)`;
        return one;
      }
      const tests = stratifiedSpTests(withGames);
      const h = stratifiedHomogeneity(withGames);
      const v = verdict(h, tests);
      v.text = `${v.text} (Tested within ${withGames.length} strata by ${by}: an SP is compared with the other SPs of the same ${by} only.)`;
      if (one.verdict.differs && !v.differs) {
        const oh = one.homogeneity;
        const why = oh !== null && oh.p < ALPHA ? homogeneityText(oh) : one.verdict.lowest_q === null ? "" : `q = ${fmtP(one.verdict.lowest_q[1])} at SP ${one.verdict.lowest_q[0]}`;
        const caveat = `Caveat: taken as one table, without strata, the answer would be yes (${why}), but within each ${by} nothing differs: that difference comes from mixing ${by}s with different results, not from the start positions.`;
        v.text += " " + caveat;
        v.caveat = caveat;
      }
      return { pooled: pooled(whole), tests, homogeneity: h, verdict: v };
    }
    // groups::draws_row: draws as "wins", decisive games as "losses".
    const drawsRow = (r) => [r[1], 0, r[0] + r[2]];
    // table::round6 (Rust's round: halves away from zero).
    const round6 = (x) => Math.sign(x) * Math.round(Math.abs(x) * 1e6) / 1e6;
    // SpCounts::wilson_interval of `w` "wins" in `n` games, with `d` draws.
    function wilson(w, d, n) {
      if (n === 0) return null;
      const p = (w + d / 2.0) / n;
      const z2 = Z95 * Z95;
      const centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
      const half = Z95 / (1.0 + z2 / n) * Math.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n));
      return [Math.max(centre - half, 0.0), Math.min(centre + half, 1.0)];
    }
    // Rust's ryu text of a CSV number ("1.0", "0.25", "1.5e-7"): scientific below 1e-5.
    function csvNumber(x) {
      if (x === null || x === undefined || !isFinite(x)) return "";
      if (Number.isInteger(x) && Math.abs(x) < 1e16) return x.toFixed(1);
      if (Math.abs(x) < 1e-5 || Math.abs(x) >= 1e16) return x.toExponential().replace("e+", "e");
      return String(x);
    }
    // groups::analysed: within the strata when there are any, else one table.
    const analysed = (rows, strata, by) => (by && strata && strata.length ? analyseWithin(strata, by) : analyse(rows));
    // The page's table analysed as `pgn960 stats` analyses an SP table: white's score as
    // SpTables::sp_cell (within the strata whenever the table keeps strata: `strata` an
    // array, possibly empty, of the strata's 960-row tables in the library's order, named
    // `by`; null: one table) and the draw rate as groups::draw_analysis.
    function analyseTable(rows, strata, by) {
      const score = strata ? analyseWithin(strata, by) : analyse(rows);
      const draws = analysed(rows.map(drawsRow), strata && strata.map((s) => s.map(drawsRow)), by);
      return { score, draws };
    }
    // groups::grouped: the rows of each group (a list of SPs) summed.
    const grouped = (rows, groups) => groups.map((sps) => {
      const t = [0, 0, 0];
      for (const sp of sps) { const r = rows[sp]; if (r) { t[0] += r[0]; t[1] += r[1]; t[2] += r[2]; } }
      return t;
    });
    // groups::group_table for groups `groups` (lists of SPs, in the table's order); `mirror`:
    // also the test within each pair (Feature::Mirror).
    function groupTable(rows, strata, by, groups, mirror) {
      const sums = grouped(rows, groups);
      const gStrata = (strata || []).map((s) => grouped(s, groups));
      const score = analysed(sums, gStrata, by);
      const draws = analysed(sums.map(drawsRow), gStrata.map((s) => s.map(drawsRow)), by);
      const r6 = (x) => (x === null ? null : round6(x));
      const out = sums.map(([w, d, l], i) => {
        const n = w + d + l, si = wilson(w, d, n), di = wilson(d, 0, n);
        const t = score.tests[i], dt = draws.tests[i];
        return { games: n, white_wins: w, draws: d, black_wins: l, white_score: n ? r6((w + d / 2.0) / n) : null, white_score_lo: si && r6(si[0]), white_score_hi: si && r6(si[1]),
          draw_rate: n ? r6(d / n) : null, draw_rate_lo: di && r6(di[0]), draw_rate_hi: di && r6(di[1]), p_value: t ? t.p : null, q_value: t ? t.q : null, draw_q_value: dt ? dt.q : null };
      });
      let withinPairs = null;
      if (mirror) {
        const sources = strata && strata.length ? strata : [rows];
        const pairs = [];
        for (const source of sources) for (const sps of groups) pairs.push(sps.filter((sp) => source[sp]).map((sp) => source[sp]));
        withinPairs = stratifiedHomogeneity(pairs);
      }
      return { rows: out, homogeneity: score.homogeneity, draw_homogeneity: draws.homogeneity, within_pairs: withinPairs };
    }
    return { analyse, analyseWithin, analyseTable, groupTable, wilson, round6, fmtP, fixed, csvNumber, homogeneityText, normalTwoSidedP, chi2Sf, splitMix64, permutationChi2P, halfPointPmf };
  })();
  // ==== END port of pgn960::stats

  // ---- state in the URL hash: #sp=226&sort=-score&q=RNB&min=5&sig=1&empty=1
  //      and the game filters: &from=2024-03&to=2024-05&band=1800-1999&speed=blitz&event=3
  const state = { sp: null, sort: "sp", dir: 1, text: "", min: 0, sig: false, empty: false, from: "", to: "", band: null, speed: null, event: null, group: null, gsort: "group", gdir: 1 };
  const FILTER = DATA.filter;
  function readHash() {
    const params = new URLSearchParams(location.hash.replace(/^#/, ""));
    const sp = parseInt(params.get("sp"), 10);
    state.sp = sp >= 0 && sp < 960 ? sp : null;
    const sort = params.get("sort") || "sp";
    const key = sort.replace(/^-/, "");
    if (COLUMNS.some((c) => c.key === key)) {
      state.sort = key;
      state.dir = sort.startsWith("-") ? -1 : 1;
    }
    state.text = params.get("q") || "";
    state.min = Math.max(0, parseInt(params.get("min"), 10) || 0);
    state.sig = params.get("sig") === "1";
    state.empty = params.get("empty") === "1";
    const pick = (name, values) => {
      const v = params.get(name);
      return v !== null && FILTER && values.includes(v) ? v : null;
    };
    state.from = (FILTER && pick("from", FILTER.months)) || "";
    state.to = (FILTER && pick("to", FILTER.months)) || "";
    state.band = FILTER ? pick("band", FILTER.bands) : null;
    state.speed = FILTER ? pick("speed", FILTER.speeds) : null;
    state.event = FILTER ? pick("event", FILTER.events) : null;
    const group = params.get("group");
    state.group = DATA.groups.some((g) => g.feature === group) ? group : (DATA.groups.length ? DATA.groups[0].feature : null);
    const gsort = params.get("gsort") || "group";
    const gkey = gsort.replace(/^-/, "");
    state.gsort = GROUP_COLUMNS.some((c) => c.key === gkey && c.first) ? gkey : "group";
    state.gdir = gsort.startsWith("-") && state.gsort === gkey ? -1 : 1;
  }
  function writeHash() {
    const params = new URLSearchParams();
    if (state.sp !== null) params.set("sp", state.sp);
    if (state.sort !== "sp" || state.dir !== 1) params.set("sort", (state.dir < 0 ? "-" : "") + state.sort);
    if (state.text) params.set("q", state.text);
    if (state.min) params.set("min", state.min);
    if (state.sig) params.set("sig", "1");
    if (state.empty) params.set("empty", "1");
    if (state.from) params.set("from", state.from);
    if (state.to) params.set("to", state.to);
    for (const k of ["band", "speed", "event"]) if (state[k] !== null) params.set(k, state[k]);
    if (DATA.groups.length && state.group !== DATA.groups[0].feature) params.set("group", state.group);
    if (state.gsort !== "group" || state.gdir !== 1) params.set("gsort", (state.gdir < 0 ? "-" : "") + state.gsort);
    const hash = params.toString();
    history.replaceState(null, "", hash ? "#" + hash : location.pathname + location.search);
  }

  // ---- the game filters: the table and its statistics recomputed from the page's cells
  // by the port of pgn960::stats above (the verdict too), as pgn960 stats computes them.
  const filtering = () => !!(state.from || state.to || state.band !== null || state.speed !== null || state.event !== null);
  let view = DATA.sps;
  let pairView = DATA.pairs;
  let filtered = null; // under a filter: { score, draws, strata, by, pairTests, seconds }
  // The strata the page tests within, as pgn960 stats does (`--strata`, default event):
  // the cells' dimension index and the noun, or null (one table) when the report was made
  // with --strata none or the cells pooled the events.
  function strataOfCells() {
    if (!FILTER || !FILTER.strata) return null;
    if (FILTER.strata === "event") return FILTER.events_pooled ? null : { dim: 3, by: "event" };
    if (FILTER.strata === "time control") return { dim: 2, by: "time control" };
    return null;
  }
  function computeView() {
    filtered = null;
    if (!FILTER || !filtering()) { view = DATA.sps; pairView = DATA.pairs; return; }
    const began = performance.now();
    const m = FILTER.months, from = state.from, to = state.to;
    const okMonth = m.map((v) => v !== "" && (!from || v >= from) && (!to || v <= to));
    const all = !from && !to;
    const bi = state.band === null ? -1 : FILTER.bands.indexOf(state.band);
    const si = state.speed === null ? -1 : FILTER.speeds.indexOf(state.speed);
    const ei = state.event === null ? -1 : FILTER.events.indexOf(state.event);
    const wdl = DATA.sps.map(() => [0, 0, 0]);
    const pass = (mo, b, s, e) => (all || okMonth[mo]) && (bi < 0 || b === bi) && (si < 0 || s === si) && (ei < 0 || e === ei);
    const how = strataOfCells();
    const strata = new Map();
    for (const cell of FILTER.cells) {
      const [mo, b, s, e, sp, w, d, l] = cell;
      if (!pass(mo, b, s, e)) continue;
      const c = wdl[sp]; c[0] += w; c[1] += d; c[2] += l;
      if (how) {
        const k = cell[how.dim];
        if (!strata.has(k)) strata.set(k, DATA.sps.map(() => [0, 0, 0]));
        const t = strata.get(k)[sp]; t[0] += w; t[1] += d; t[2] += l;
      }
    }
    // The strata in the library's order (the cells' values are numbered in it).
    const tables = how ? [...strata.keys()].sort((a, b) => a - b).map((k) => strata.get(k)) : null;
    const { score, draws } = STATS.analyseTable(wdl, tables, how ? how.by : null);
    view = DATA.sps.map((r, sp) => {
      const [w, d, l] = wdl[sp], n = w + d + l;
      const lo = STATS.wilson(w, d, n), dr = STATS.wilson(d, 0, n);
      const t = score.tests[sp] || {}, dt = draws.tests[sp] || {};
      return { sp, start: r.start, games: n, w, d, l, score: n ? STATS.round6((w + d / 2) / n) : null, draw_rate: n ? STATS.round6(d / n) : null,
        lo: lo && STATS.round6(lo[0]), hi: lo && STATS.round6(lo[1]), draw_lo: dr && STATS.round6(dr[0]), draw_hi: dr && STATS.round6(dr[1]),
        draw_q: dt.q === undefined ? null : dt.q, excess: null, q: t.q === undefined ? null : t.q, p: t.p === undefined ? null : t.p, eval10: null, eval20: null, eval_games: 0 };
    });
    const pairs = new Map();
    for (const [mo, b, s, e, white, black, w, d, l] of FILTER.pairs) {
      if (!pass(mo, b, s, e)) continue;
      const k = white * 960 + black;
      const c = pairs.get(k) || [0, 0, 0];
      c[0] += w; c[1] += d; c[2] += l;
      pairs.set(k, c);
    }
    pairView = [...pairs.entries()].sort((a, b) => a[0] - b[0]).map(([k, [w, d, l]]) => {
      const n = w + d + l;
      return [Math.floor(k / 960), k % 960, n, w, d, l, n ? (w + d / 2) / n : null];
    });
    // The Double Chess960 table is tested as one table (SpTables::pair_cells).
    const pairTests = STATS.analyse(pairView.map((p) => [p[3], p[4], p[5]])).tests;
    filtered = { score, draws, strata: tables, by: how ? how.by : null, pairTests, wdl };
    filtered.seconds = (performance.now() - began) / 1000;
  }
  // The CSV columns of pgn960 stats the page computes (those from ratings and
  // evaluations need the games: the cells hold W/D/L only).
  const FILTERED_COLUMNS = ["games", "white_wins", "draws", "black_wins", "white_score", "draw_rate", "white_score_lo", "white_score_hi", "p_value", "q_value"];
  // The filtered table as CSV: those columns of pgn960 stats's file, same names, same
  // values (numbers printed as Rust prints them) for the same games.
  function countsCsv(pairs) {
    const head = ["sp"].concat(pairs ? ["black_sp"] : [], ["start"], FILTERED_COLUMNS);
    const lines = [head.join(",")];
    const f = STATS.csvNumber, r6 = (x) => (x === null ? null : STATS.round6(x));
    const stat = (w, d, l, t) => {
      const n = w + d + l, i = STATS.wilson(w, d, n);
      return [n, w, d, l, f(n ? r6((w + d / 2) / n) : null), f(n ? r6(d / n) : null), f(i && r6(i[0])), f(i && r6(i[1])), f(t ? t.p : null), f(t ? t.q : null)];
    };
    if (pairs) {
      pairView.forEach(([w, b, , ww, d, l], i) => lines.push([w, b, DATA.sps[w].start].concat(stat(ww, d, l, filtered.pairTests[i])).join(",")));
    } else {
      for (const r of view) lines.push([r.sp, r.start].concat(stat(r.w, r.d, r.l, filtered.score.tests[r.sp])).join(","));
    }
    return lines.join("\n") + "\n";
  }
  // The command line of `pgn960 stats` that counts the filtered games (and tests them).
  function statsCommand(extra) {
    const args = ["pgn960 stats"].concat(DATA.summary.inputs.map(shellWord), DATA.selection);
    const last = (month) => month + "-31";
    if (state.from) args.push("--since " + state.from.replace("-", ".") + ".01");
    if (state.to) args.push("--until " + last(state.to).replace(/-/g, "."));
    if (state.speed) args.push("--time-control " + state.speed);
    const by = [];
    if (state.band !== null) by.push("rating-band");
    if (state.event !== null) by.push("event");
    if (by.length) args.push("--by " + by.join(","));
    const strata = !FILTER.strata ? "none" : FILTER.strata === "event" && FILTER.events_pooled ? "none" : FILTER.strata === "time control" ? "time-control" : null;
    if (strata) args.push("--strata " + strata);
    args.push(extra || "--report report.json");
    return args.join(" ");
  }
  function shellWord(w) {
    return /^[A-Za-z0-9_.\/=:,+-]+$/.test(w) ? w : "'" + w.replace(/'/g, "'\\''") + "'";
  }
  function renderFilters() {
    const sec = document.getElementById("filters");
    if (!FILTER) {
      sec.append(el("p", { class: "note", text: DATA.summary.from_tables
        ? "Filters need the games: this page was built from tables. Cut the games with pgn960 stats --by instead."
        : "The games fall into more than the page's limit of cells of month \u00d7 speed \u00d7 start position, even with events and rating bands pooled (see the documentation): the page holds no filters, to stay small. Cut the archive with pgn960 stats --by month,rating-band,time-control instead." }));
      return;
    }
    const opt = (values, label, all) => [el("option", { value: "", text: all })].concat(values.map((v) => el("option", { value: v, text: v === "" ? "(" + label + ")" : v })));
    const months = FILTER.months.filter((v) => v !== "");
    const from = el("select", { id: "f-from" }, ...opt(months, "", "first"));
    const to = el("select", { id: "f-to" }, ...opt(months, "", "last"));
    const band = el("select", { id: "f-band" }, ...opt(FILTER.bands, "unrated", "all"));
    const speed = el("select", { id: "f-speed" }, ...opt(FILTER.speeds, "no time control", "all"));
    const controls = [el("label", { for: "f-from" }, "from month", from), el("label", { for: "f-to" }, "to month", to)];
    if (!FILTER.bands_pooled) controls.push(el("label", { for: "f-band" }, "rating band (mean)", band));
    controls.push(el("label", { for: "f-speed" }, "speed", speed));
    let event = null;
    if (!FILTER.events_pooled) {
      event = el("select", { id: "f-event" }, ...opt(FILTER.events, "no event", "all"));
      controls.push(el("label", { for: "f-event" }, "event", event));
    }
    const reset = el("button", { type: "button", text: "All games" });
    controls.push(reset);
    const note = el("p", { class: "note", id: "filter-note", "aria-live": "polite" });
    sec.append(el("div", { class: "filters" }, ...controls), note);
    sec.append(el("p", { class: "note", text: "The filters recount W/D/L per start position from counts per month \u00d7 rating band \u00d7 speed \u00d7 event \u00d7 SP held in the page (" + int(FILTER.cells.length) + " cells; at most " + int(FILTER.limit) + ": past that the events are pooled and the event filter goes, past it again the rating bands and the band filter, and past it still the page has no filters). A month holds the games whose date lies within it; games dated by year only pass only when no month is chosen. Under a filter the page recomputes the statistics of the table from these counts \u2014 the intervals, p- and q-values, the homogeneity test within strata and the verdict \u2014 by its copy of pgn960 stats\u2019s tests (kept equal to them by the test suite), and shows the command line that gives the same; the columns from ratings and evaluations (excess over Elo, mean evaluation) need the games and stay empty." + (FILTER.events_pooled ? " Events were pooled to stay within the limit: the page then tests the filtered games as one table, where pgn960 stats tests within events by default (--strata none gives the page\u2019s answer)." : "") + (FILTER.bands_pooled ? " Rating bands were pooled too." : "") }));
    const setSel = (sel, values, v) => { sel.selectedIndex = v === null || v === "" && values === months ? 0 : values.indexOf(v) + 1; };
    const sync = () => { setSel(from, months, state.from); setSel(to, months, state.to); setSel(band, FILTER.bands, state.band); setSel(speed, FILTER.speeds, state.speed); if (event) setSel(event, FILTER.events, state.event); };
    const val = (s) => (s.value === "" && s.selectedIndex === 0 ? null : s.value);
    const update = () => {
      state.from = from.value; state.to = to.value; state.band = FILTER.bands_pooled ? null : val(band); state.speed = val(speed); state.event = event ? val(event) : null;
      applyFilters(); writeHash();
    };
    for (const s of [from, to, band, speed, event]) if (s) s.addEventListener("change", update);
    reset.addEventListener("click", () => { state.from = state.to = ""; state.band = state.speed = state.event = null; sync(); applyFilters(); writeHash(); });
    sync();
  }
  // The banner under a filter: the verdict the port computed, its caveat apart, and how.
  function filterBanner(banner, n, pairs) {
    const v = filtered.score.verdict;
    const text = v.caveat ? v.text.slice(0, v.text.length - v.caveat.length).trim() : v.text;
    const how = strataOfCells();
    let tested = "";
    if (FILTER.strata === "event" && !how) tested = " The page tested these games as one table: its cells pooled the events to stay within its limit, so it cannot test within events as pgn960 stats does by default; this is the verdict of pgn960 stats --strata none, not of pgn960 stats.";
    banner.replaceChildren(...[
      el("strong", { text: `Filtered: ${int(n)} of ${int(DATA.overview.games)} games${pairs}. ` }),
      el("span", { id: "filtered-verdict", text }),
      v.caveat ? el("span", { class: "caveat-text", id: "filtered-caveat", text: " " + v.caveat }) : null,
      el("span", { class: "note", text: ` Computed in the page from its cells (${filtered.seconds < 0.05 ? "under 0.05" : filtered.seconds.toFixed(2)} s) by its copy of pgn960 stats's tests, kept equal to them by the test suite.${tested} The same with: ${statsCommand()}` }),
    ].filter((x) => x !== null));
    banner.classList.toggle("differs", v.differs);
  }
  // Pages with more cells than this show "computing" and recompute after a paint.
  const DEFERRED_CELLS = 20000;
  let pendingFilter = 0;
  function applyFilters() {
    const banner = document.getElementById("filter-verdict");
    if (filtering() && FILTER.cells.length > DEFERRED_CELLS) {
      banner.replaceChildren(el("span", { id: "filter-computing", text: "Computing the statistics of the filtered games\u2026" }));
      banner.hidden = false;
      const token = ++pendingFilter;
      setTimeout(() => { if (token === pendingFilter) drawFiltered(); }, 20);
      return;
    }
    pendingFilter++;
    drawFiltered();
  }
  // The page under the current filters: the view recomputed and every section redrawn.
  function drawFiltered() {
    computeView();
    const note = document.getElementById("filter-note");
    const banner = document.getElementById("filter-verdict");
    const downloads = document.getElementById("filtered-downloads");
    downloads.replaceChildren();
    if (filtering()) {
      const n = view.reduce((a, r) => a + r.games, 0);
      const pairGames = pairView.reduce((a, p) => a + p[2], 0);
      const pairs = DATA.summary.counted_double_chess960 ? ` and ${int(pairGames)} of ${int(DATA.summary.counted_double_chess960)} Double Chess960 games` : "";
      filterBanner(banner, n, pairs);
      downloads.append(download("stats-filtered.csv", "text/csv", countsCsv(false), "Download the filtered table (CSV: the columns of pgn960 stats the page computes)", "download-filtered-csv"),
        el("span", { class: "note", text: " the columns sp, start, " + FILTERED_COLUMNS.join(", ") + " of: " + statsCommand("-o stats.csv") }));
      if (note) note.textContent = `Filtered: ${int(n)} of ${int(DATA.overview.games)} games${pairs}; the verdict, intervals and q-values are those of these games.`;
      banner.hidden = false;
    } else {
      if (note) note.textContent = "No filter: all " + int(DATA.overview.games) + " games of the SP table.";
      banner.hidden = true;
    }
    fillTable();
    applySort();
    applyFilter();
    renderFunnel();
    renderGroups();
    renderPairs();
    showPanel();
  }

  // ---- the verdict and the archive summary
  function renderVerdict() {
    const o = DATA.overview;
    const v = document.getElementById("verdict");
    const pairGames = DATA.summary.counted_double_chess960;
    if (o.games === 0 && pairGames > 0) {
      v.textContent = `No game in the SP table: the ${int(pairGames)} games counted are Double Chess960 (white and black start from different positions), in ${int(DATA.pairs.length)} pairs of start positions listed below.`;
      const go = el("button", { type: "button", class: "link", text: "Go to the Double Chess960 pairs" });
      go.addEventListener("click", () => document.getElementById("dfrc").scrollIntoView());
      v.after(el("p", {}, go));
    } else {
      v.textContent = o.verdict;
      const h = o.homogeneity;
      if (o.significant > 0 || (h && h.p < ALPHA)) v.classList.add("differs");
      if (o.caveat) {
        v.textContent = o.verdict.slice(0, o.verdict.length - o.caveat.length).trim();
        v.after(el("p", { class: "verdict caveat", text: o.caveat }));
      }
    }
    document.getElementById("version").textContent = DATA.version;
  }

  // ---- downloads: files the page makes from its own data (data: URLs, nothing fetched)
  function b64(text) {
    const bytes = new TextEncoder().encode(text);
    let bin = "";
    for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
    return btoa(bin);
  }
  function download(name, type, text, label, id) {
    return el("a", { class: "download", id, download: name, href: "data:" + type + ";base64," + b64(text), text: label });
  }
  function svgDownload(svg, name, id) {
    return download(name, "image/svg+xml", new XMLSerializer().serializeToString(svg), "Download the chart (SVG)", id);
  }

  function facts(pairs) {
    const dl = el("dl", { class: "facts" });
    for (const [k, v] of pairs) {
      if (v === null || v === undefined || v === "") continue;
      dl.append(el("dt", { text: k }), el("dd", {}, v));
    }
    return dl;
  }
  function list(map) {
    const entries = Array.isArray(map) ? map : Object.entries(map || {});
    if (!entries.length) return null;
    return entries.map(([k, n]) => (k === "" ? "(unknown)" : k) + ": " + int(n)).join(", ");
  }
  function renderSummary() {
    const s = DATA.summary;
    const a = s.archive;
    const sec = document.getElementById("summary");
    const left = [
      [s.from_tables ? "built from tables" : "inputs", s.inputs.join(", ")],
    ];
    if (a) {
      left.push(
        ["games read", int(a.games_read) + (a.seconds ? " (" + (a.bytes / 1e6).toFixed(1) + " MB in " + a.seconds.toFixed(1) + " s)" : "")],
        ["valid", int(a.valid)],
        ["rejected", int(a.rejected) + (list(a.rejected_by_reason) ? " \u2014 " + list(a.rejected_by_reason) : "")],
        ["other variants", a.unsupported_variant ? int(a.unsupported_variant) + " \u2014 " + list(a.unsupported_by_variant) : "0"]
      );
    }
    left.push(
      ["counted (SP table)", int(s.counted)],
      ["Double Chess960", int(s.counted_double_chess960)],
      ["valid, not counted", list(s.excluded) || "0"],
      ["dates", s.first_date ? s.first_date + " \u2013 " + s.last_date : null],
      ["speeds", list(s.speeds)]
    );
    const h = DATA.overview.homogeneity;
    const right = [
      ["white's pooled score", fx(DATA.overview.pooled_score, 3)],
      ["homogeneity (W/D/L)", h ? "chi-square " + h.chi2.toFixed(1) + " on " + h.df + " df, p = " + fq(h.p) : "not testable"],
      ["SPs with q < " + ALPHA, String(DATA.overview.significant)],
      ["most frequent events", list(s.top_events)],
      ["most active players", list(s.top_players)],
      ["names not tallied", s.names_untallied ? int(s.names_untallied) + " games (more distinct names than the page tallies)" : null],
    ];
    sec.append(el("div", { class: "cols" }, el("div", {}, facts(left)), el("div", {}, facts(right))));
  }

  // ---- the funnel chart: drawn for the width it has (square-root x axis, as stats --chart)
  function niceTicks(max) {
    const out = [];
    for (const t of [1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000, 20000, 50000, 100000, 200000, 500000, 1000000]) {
      if (t <= max) out.push(t);
    }
    return out.length > 8 ? out.filter((t, i) => i % 2 === 0 || t === out[out.length - 1]) : out;
  }
  // Labels of named points: one per point (SPs at the same point share it), moved apart
  // vertically so none overlaps another.
  function placeLabels(items, top, bottom, gap) {
    items.sort((a, b) => a.y - b.y);
    let last = -Infinity;
    for (const it of items) { it.ly = Math.max(it.y, last + gap); last = it.ly; }
    const over = items.length ? items[items.length - 1].ly - bottom : 0;
    if (over > 0) for (const it of items) it.ly -= over;
    last = Infinity;
    for (let i = items.length - 1; i >= 0; i--) { items[i].ly = Math.min(items[i].ly, last - gap); last = items[i].ly; }
    for (const it of items) it.ly = Math.max(it.ly, top + gap);
    return items;
  }
  // A funnel chart in section `sec`: per SP with games, `o.value(r)` against its games
  // (square-root x axis), the pool `o.mean`, the band `o.band` ([games, low, high]) and
  // the SPs with `o.q(r)` below ALPHA named.
  function funnelChart(sec, o) {
    sec.querySelectorAll(":scope > :not(h2)").forEach((n) => n.remove());
    const rows = DATA.sps.filter((r) => r.games > 0);
    if (!rows.length) {
      sec.append(el("p", { text: "No games in the SP table: nothing to draw." }));
      return;
    }
    if (o.before) sec.append(...o.before);
    const W = Math.max(300, Math.min(1200, Math.floor(sec.clientWidth || 1200)));
    const narrow = W < 640;
    const H = narrow ? 320 : 440, L = narrow ? 44 : 64, R = 14, T = 16, B = 50;
    const fs = 12;
    const maxN = Math.max(...rows.map((r) => r.games));
    const span = Math.max(Math.sqrt(maxN) - 1, 1);
    const x = (n) => L + 8 + (W - L - R - 16) * (Math.sqrt(n) - 1) / span;
    const y = (s) => T + (H - T - B) * (1 - s);
    const svg = sv("svg", { viewBox: `0 0 ${W} ${H}`, width: W, height: H, class: "chart", role: "img", "aria-labelledby": o.id + "-title " + o.id + "-desc", "font-family": "system-ui, 'DejaVu Sans', sans-serif" });
    svg.append(sv("title", { id: o.id + "-title", text: o.title }));
    const named = rows.filter((r) => isSig(o.q(r)));
    svg.append(sv("desc", { id: o.id + "-desc", text: named.length ? "Outliers at q < " + ALPHA + ": " + named.map((r) => "SP " + r.sp).join(", ") : "No start position stands out beyond chance." }));
    svg.append(sv("rect", { x: 0, y: 0, width: W, height: H, fill: "#fff" }));
    const hatch = o.id + "-hatch";
    svg.append(sv("defs", {}, sv("pattern", { id: hatch, width: 8, height: 8, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      sv("rect", { width: 8, height: 8, fill: "#f3f3f3" }), sv("line", { x1: 0, y1: 0, x2: 0, y2: 8, stroke: "#d0d0d0", "stroke-width": 3 }))));
    for (let s = 0; s <= 1.0001; s += narrow ? 0.25 : 0.1) {
      svg.append(sv("line", { x1: L, x2: W - R, y1: y(s), y2: y(s), stroke: "#eee" }));
      svg.append(sv("text", { x: L - 6, y: y(s) + 4, "text-anchor": "end", "font-size": fs, text: s.toFixed(narrow ? 2 : 1) }));
    }
    const ticks = niceTicks(maxN);
    if (narrow && ticks.length > 4) ticks.splice(0, ticks.length, ...ticks.filter((t, i) => i % 2 === 0 || i === ticks.length - 1));
    for (const t of ticks) {
      svg.append(sv("line", { x1: x(t), x2: x(t), y1: y(0), y2: y(0) + 5, stroke: "#333" }));
      svg.append(sv("text", { x: x(t), y: y(0) + 18, "text-anchor": "middle", "font-size": fs, text: String(t) }));
    }
    svg.append(sv("text", { x: (L + W - R) / 2, y: H - 8, "text-anchor": "middle", "font-size": 13, text: "games of the start position (square-root scale)" }));
    svg.append(sv("text", { x: 13, y: (T + H - B) / 2, "text-anchor": "middle", "font-size": 13, transform: `rotate(-90 13 ${(T + H - B) / 2})`, text: o.axis }));
    const f = o.band;
    if (f.length) {
      const pts = f.map(([n, , hi]) => `${x(n).toFixed(1)},${y(hi).toFixed(1)}`).concat(f.slice().reverse().map(([n, lo]) => `${x(n).toFixed(1)},${y(lo).toFixed(1)}`));
      svg.append(sv("polygon", { points: pts.join(" "), fill: `url(#${hatch})`, stroke: "#777", "stroke-dasharray": "5 4" }));
    }
    const mean = o.mean;
    if (num(mean)) svg.append(sv("line", { x1: L, x2: W - R, y1: y(mean), y2: y(mean), stroke: "#000", "stroke-width": 1.5 }));
    svg.append(sv("rect", { x: L, y: T, width: W - L - R, height: H - T - B, fill: "none", stroke: "#333" }));
    for (const r of rows) {
      const sig = isSig(o.q(r));
      const c = sv("circle", { cx: x(r.games).toFixed(1), cy: y(o.value(r)).toFixed(1), r: sig ? 6 : 2.6, fill: sig ? "#a3001b" : "#1a4f8b", "fill-opacity": sig ? 1 : 0.55, stroke: sig ? "#000" : "none", "stroke-width": 2, "data-sp": r.sp },
        sv("title", { text: `SP ${r.sp} ${r.start}: ${o.value(r).toFixed(3)} from ${r.games} games, q = ${fq(o.q(r))}` }));
      c.addEventListener("click", () => openSp(r.sp));
      svg.append(c);
    }
    // Named SPs: one label per point, moved apart so that none overlaps.
    const points = new Map();
    for (const r of named.sort((a, b) => o.q(a) - o.q(b)).slice(0, 12)) {
      const k = r.games + ":" + o.value(r);
      if (!points.has(k)) points.set(k, { cx: x(r.games), y: y(o.value(r)), sps: [] });
      points.get(k).sps.push(r);
    }
    const labels = placeLabels([...points.values()], T, H - B, 16);
    for (const p of labels) {
      const right = p.cx < W * 0.62;
      const first = p.sps[0];
      const text = p.sps.length === 1 && !narrow
        ? `SP ${first.sp} ${first.start} (${o.value(first).toFixed(3)}, q = ${fq(o.q(first))})`
        : p.sps.map((r) => "SP " + r.sp).join(", ") + (narrow ? "" : ` (${o.value(first).toFixed(3)})`);
      const lx = p.cx + (right ? 12 : -12);
      if (Math.abs(p.ly - p.y) > 2) svg.append(sv("line", { x1: p.cx, y1: p.y, x2: lx, y2: p.ly - 4, stroke: "#a3001b" }));
      svg.append(sv("text", { x: lx, y: p.ly, "text-anchor": right ? "start" : "end", "font-size": 13, "font-weight": 700, fill: "#000", stroke: "#fff", "stroke-width": 3, "paint-order": "stroke", text }));
    }
    // The open SP: ringed and named in the accent colour.
    const open = state.sp !== null ? DATA.sps[state.sp] : null;
    if (open && open.games > 0) {
      const cx = x(open.games), cy = y(o.value(open));
      svg.append(sv("circle", { cx, cy, r: 10, fill: "none", stroke: "#1a4f8b", "stroke-width": 3, class: "open-sp", "data-sp": open.sp }));
      const right = cx < W * 0.62;
      svg.append(sv("text", { x: cx + (right ? 14 : -14), y: cy + (o.value(open) >= (mean || 0.5) ? 22 : -14), "text-anchor": right ? "start" : "end", "font-size": 13, fill: "#1a4f8b", stroke: "#fff", "stroke-width": 3, "paint-order": "stroke", text: "open: SP " + open.sp }));
    }
    sec.append(svg);
    const note = named.length
      ? `Named: the ${named.length} start position${named.length > 1 ? "s" : ""} whose ${o.what} differs from the pool at a 5% false discovery rate (q < ${ALPHA}, large dark dots).`
      : "No start position stands out: every q-value is at least " + ALPHA + ", so none is named. Dots outside the hatched band are expected by chance alone (about 1 in 20).";
    sec.append(el("p", { class: "note", text: o.legend + " " + note + (filtering() ? " The chart shows all the page's games, not the filter's." : "") }));
    sec.append(el("p", {}, svgDownload(svg, o.id + ".svg", "download-" + o.id)));
    if (o.after) sec.append(...o.after);
  }
  function renderFunnel() {
    const mean = DATA.overview.pooled_score;
    funnelChart(document.getElementById("funnel"), {
      id: "funnel", value: (r) => r.score, q: (r) => r.q, band: DATA.funnel, mean, axis: "white's score", what: "white score",
      title: "White's score by start position against its number of games, with the 95% funnel of chance",
      legend: `Each dot is a start position; the solid line is white's pooled score (${fx(mean, 3)}); the hatched band is where white's score falls with 95% probability for that many games if no start position differed from the pool.`,
    });
    renderDraws();
  }
  // ---- the draw rates: the same chart and tests, on draws against decisive games
  function renderDraws() {
    const d = DATA.draws;
    const h = d.homogeneity;
    const test = h ? `Do the start positions share one draw rate? The test of the SP table run on draws against decisive games: ${homogeneityText(h)}; ${d.significant} SP${d.significant === 1 ? "" : "s"} with a draw rate differing from the pool at q < ${ALPHA}.` : "The draw rates are not testable (too few games or outcomes).";
    const sortBy = el("button", { type: "button", class: "link", id: "sort-drawish", text: "List the most drawish positions first" });
    sortBy.addEventListener("click", () => { state.sort = "draw_lo"; state.dir = -1; applySort(); writeHash(); document.getElementById("positions").scrollIntoView(); });
    funnelChart(document.getElementById("draws"), {
      id: "draw-funnel", value: (r) => r.draw_rate, q: (r) => r.draw_q, band: d.funnel, mean: d.pooled_rate, axis: "draw rate", what: "draw rate",
      title: "Draw rate by start position against its number of games, with the 95% funnel of chance",
      legend: `Each dot is a start position; the solid line is the pooled draw rate (${pct(d.pooled_rate)}); the hatched band is where the draw rate falls with 95% probability for that many games if every start position drew as often as the pool.`,
      before: [el("p", { id: "draw-test", text: test })],
      after: [el("p", { class: "note" }, "Per start position the table below gives the draw rate, its 95% Wilson interval and its q-value; sorting by the interval's low end puts first the positions that are drawish with confidence. ", sortBy)],
    });
  }

  // ---- the table
  const HAS_EVALS = DATA.sps.some((r) => r.eval_games > 0);
  const COLUMNS = [
    { key: "sp", label: "SP", first: 1, text: false },
    { key: "start", label: "Back rank", first: 1, text: true },
    { key: "games", label: "Games", first: -1 },
    { key: "score", label: "White score", first: -1 },
    { key: "lo", label: "95% interval", first: -1 },
    { key: "draw_rate", label: "Draw rate", first: -1 },
    { key: "draw_lo", label: "Draw 95% interval", first: -1 },
    { key: "draw_q", label: "Draw q", first: 1 },
    { key: "excess", label: "Excess over Elo", first: -1 },
    { key: "q", label: "q-value", first: 1 },
  ].concat(HAS_EVALS ? [
    { key: "eval10", label: "Eval, ply 10", first: -1 },
    { key: "eval20", label: "Eval, ply 20", first: -1 },
  ] : []);
  const pawns = (x) => (num(x) ? (x > 0 ? "+" : "") + x.toFixed(2) : "\u2013");
  let tbody, table, rowsBySp = [], countLine;
  function cells(r) {
    const out = [
      el("td", {}, el("button", { type: "button", class: "link", "aria-label": "Open start position " + r.sp, text: String(r.sp) })),
      el("td", { class: "text", text: r.start }),
      el("td", { text: int(r.games) }),
      el("td", { text: fx(r.score, 3) }),
      el("td", { text: interval(r.lo, r.hi) }),
      el("td", { text: pct(r.draw_rate) }),
      el("td", { text: pctInterval(r.draw_lo, r.draw_hi) }),
      el("td", { text: fq(r.draw_q) }),
      el("td", { text: signed(r.excess) }),
      el("td", { text: fq(r.q) }),
    ];
    if (HAS_EVALS) out.push(el("td", { text: pawns(r.eval10) }), el("td", { text: pawns(r.eval20) }));
    return out;
  }
  function renderTable() {
    const sec = document.getElementById("positions");
    const text = el("input", { type: "search", id: "f-text", placeholder: "226 or RNBQKBNR or BB", value: state.text });
    const min = el("input", { type: "number", id: "f-min", min: 0, value: state.min || "" });
    const sig = el("input", { type: "checkbox", id: "f-sig" });
    const empty = el("input", { type: "checkbox", id: "f-empty" });
    sig.checked = state.sig;
    empty.checked = state.empty;
    countLine = el("p", { class: "note", "aria-live": "polite", id: "count" });
    sec.append(el("div", { class: "filters", role: "search" },
      el("label", { for: "f-text" }, "SP number or back rank contains", text),
      el("label", { for: "f-min" }, "at least this many games", min),
      el("label", { for: "f-sig", class: "check" }, sig, "only q < " + ALPHA),
      el("label", { for: "f-empty", class: "check" }, empty, "show SPs without games")), countLine);
    const update = () => { state.text = text.value.trim(); state.min = parseInt(min.value, 10) || 0; state.sig = sig.checked; state.empty = empty.checked; applyFilter(); writeHash(); };
    text.addEventListener("input", update);
    min.addEventListener("input", update);
    sig.addEventListener("change", update);
    empty.addEventListener("change", update);
    const head = el("tr");
    for (const c of COLUMNS) {
      const b = el("button", { type: "button", text: c.label });
      b.addEventListener("click", () => {
        state.dir = state.sort === c.key ? -state.dir : c.first;
        state.sort = c.key;
        applySort();
        writeHash();
      });
      head.append(el("th", { scope: "col", class: c.text ? "text" : null, "data-key": c.key }, b));
    }
    table = el("table", { id: "sp-table" },
      el("caption", { class: "note", text: "White's score per start position with its 95% Wilson interval; q-value: Benjamini\u2013Hochberg over the 960 tests against the pooled score (\u2605 marks q < " + ALPHA + "); the draw rate with its 95% Wilson interval and the q-value of its test against the pooled draw rate; excess: white's score minus the score expected from the ratings, rated games only" + (HAS_EVALS ? "; eval: the mean engine evaluation after ply 10 and 20, in pawns from white's view (mates as \u00b110), over the games with one" : "") + ". Sort with the column buttons; open a position with its number or Enter." }),
      el("thead", {}, head));
    tbody = el("tbody");
    for (const r of DATA.sps) {
      const tr = el("tr", { "data-sp": r.sp, tabindex: -1, class: isSig(r.q) ? "sig" : null });
      tr.addEventListener("click", () => openSp(r.sp));
      tr.addEventListener("keydown", (e) => { if (e.key === "Enter" && e.target === tr) openSp(r.sp); });
      rowsBySp[r.sp] = tr;
      tbody.append(tr);
    }
    table.append(tbody);
    sec.append(el("div", { class: "scroll" }, table));
    sec.append(el("p", { class: "downloads" },
      download("stats.csv", "text/csv", DATA.csv, "Download the table (CSV, as pgn960 stats writes it)", "download-csv")));
    sec.append(el("p", { class: "downloads", id: "filtered-downloads" }));
    sec.append(el("p", { class: "note", text: "The CSV is the table of all the page's games, byte for byte the file pgn960 stats writes for them (with the same selection and strata). Under a filter a second link downloads the filtered table: the columns of pgn960 stats's file the page computes (sp, start, games, white_wins, draws, black_wins, white_score, draw_rate, white_score_lo, white_score_hi, p_value, q_value) for the filtered games, with the command line that writes the whole file." }));
  }
  function fillTable() {
    for (const r of view) {
      const tr = rowsBySp[r.sp];
      tr.replaceChildren(...cells(r));
      tr.classList.toggle("sig", isSig(r.q));
    }
  }
  function applySort() {
    const key = state.sort, dir = state.dir;
    const rows = view.slice();
    rows.sort((a, b) => {
      const x = a[key], y = b[key];
      const mx = x === null || x === undefined, my = y === null || y === undefined;
      if (mx || my) return mx && my ? a.sp - b.sp : mx ? 1 : -1;
      const c = typeof x === "string" ? x.localeCompare(y) : x - y;
      return c !== 0 ? dir * c : a.sp - b.sp;
    });
    for (const r of rows) tbody.append(rowsBySp[r.sp]);
    for (const th of table.querySelectorAll("th")) {
      th.setAttribute("aria-sort", th.dataset.key === key ? (dir > 0 ? "ascending" : "descending") : "none");
    }
    table.dataset.sort = key + ":" + (dir > 0 ? "ascending" : "descending");
  }
  function applyFilter() {
    const t = state.text.toUpperCase();
    let shown = 0, empty = 0;
    for (const r of view) {
      const match = (!t || String(r.sp) === t || r.start.includes(t)) && r.games >= state.min && (!state.sig || isSig(r.q));
      const ok = match && (state.empty || r.games > 0 || String(r.sp) === t);
      if (match && !ok) empty++;
      rowsBySp[r.sp].hidden = !ok;
      shown += ok ? 1 : 0;
    }
    countLine.textContent = `Showing ${shown} of ${DATA.sps.length} start positions` + (empty ? ` (${empty} without games hidden: tick "show SPs without games" to list them).` : ".");
  }

  // ---- the board: pieces drawn as shapes (no fonts, no images), recognisable in grey
  const SHAPES = {
    P: [["circle", { cx: 50, cy: 32, r: 12 }], ["path", { d: "M36 82 Q38 58 45 44 H55 Q62 58 64 82 Z" }]],
    R: [["path", { d: "M31 82 L34 46 H66 L69 82 Z" }], ["path", { d: "M28 46 V22 H37 V30 H45 V22 H55 V30 H63 V22 H72 V46 Z" }]],
    N: [["path", { d: "M32 82 C32 66 40 58 48 50 C40 52 33 57 28 52 C24 47 33 37 39 31 C43 23 50 19 56 17 L59 9 L63 18 C74 25 76 48 70 82 Z" }], ["circle", { cx: 50, cy: 30, r: 3, detail: 1 }]],
    B: [["path", { d: "M35 82 Q37 62 44 56 H56 Q63 62 65 82 Z" }], ["ellipse", { cx: 50, cy: 42, rx: 13, ry: 17 }], ["circle", { cx: 50, cy: 19, r: 5 }], ["path", { d: "M45 35 L56 46", detail: 1 }]],
    Q: [["path", { d: "M30 82 L23 34 L38 58 L42 27 L50 56 L58 27 L62 58 L77 34 L70 82 Z" }], ["circle", { cx: 23, cy: 31, r: 4.5 }], ["circle", { cx: 42, cy: 24, r: 4.5 }], ["circle", { cx: 58, cy: 24, r: 4.5 }], ["circle", { cx: 77, cy: 31, r: 4.5 }]],
    K: [["path", { d: "M32 82 Q28 56 40 48 H60 Q72 56 68 82 Z" }], ["path", { d: "M43 48 Q40 35 50 33 Q60 35 57 48 Z" }], ["path", { d: "M50 8 V31 M41 17 H59", line: 1 }]],
  };
  function piece(letter, white, x0, y0, size) {
    const g = sv("g", { transform: `translate(${x0} ${y0}) scale(${size / 100})` });
    const fill = white ? "#fff" : "#222", ink = "#000", detail = white ? "#000" : "#fff";
    g.append(sv("path", { d: "M26 82 H74 V92 H26 Z", fill, stroke: ink, "stroke-width": 3 }));
    for (const [tag, a] of SHAPES[letter]) {
      const attrs = Object.assign({}, a);
      const isDetail = attrs.detail, isLine = attrs.line;
      delete attrs.detail; delete attrs.line;
      if (isLine) Object.assign(attrs, { fill: "none", stroke: ink, "stroke-width": 6, "stroke-linecap": "round" });
      else if (isDetail) Object.assign(attrs, { fill: detail, stroke: detail, "stroke-width": 3 });
      else Object.assign(attrs, { fill, stroke: ink, "stroke-width": 3, "stroke-linejoin": "round" });
      g.append(sv(tag, attrs));
    }
    return g;
  }
  function board(start) {
    const S = 40, M = 20;
    const svg = sv("svg", { viewBox: `0 0 ${8 * S + M} ${8 * S + M}`, class: "board", role: "img", "aria-label": "Start position: white " + start.split("").join(" ") + " on the first rank, black the same on the eighth" });
    const files = "abcdefgh";
    for (let rank = 8; rank >= 1; rank--) {
      for (let f = 0; f < 8; f++) {
        const x0 = M + f * S, y0 = (8 - rank) * S;
        const dark = (f + rank) % 2 === 1; // a1 is dark
        svg.append(sv("rect", { x: x0, y: y0, width: S, height: S, fill: dark ? "#a9a9a9" : "#eeeeee" }));
        const letter = rank === 1 || rank === 8 ? start[f] : rank === 2 || rank === 7 ? "P" : null;
        if (letter) svg.append(piece(letter, rank <= 2, x0 + 2, y0 + 1, S - 4));
      }
      svg.append(sv("text", { x: M / 2, y: (8 - rank) * S + S / 2 + 4, "text-anchor": "middle", "font-size": 11, text: String(rank) }));
    }
    for (let f = 0; f < 8; f++) svg.append(sv("text", { x: M + f * S + S / 2, y: 8 * S + 14, "text-anchor": "middle", "font-size": 11, text: files[f] }));
    svg.append(sv("rect", { x: M, y: 0, width: 8 * S, height: 8 * S, fill: "none", stroke: "#000" }));
    return svg;
  }

  // ---- the W/D/L bar: white wins plain white, draws hatched, black wins black, each labelled
  let barId = 0;
  function wdlBar(w, d, l, width, height, labels) {
    const n = w + d + l;
    const id = "hatch" + (++barId);
    const svg = sv("svg", { viewBox: `0 0 ${width} ${height}`, width, height, class: labels ? "wdl" : "bar", role: "img", "aria-label": `white wins ${w}, draws ${d}, black wins ${l}` });
    svg.append(sv("defs", {}, sv("pattern", { id, width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      sv("rect", { width: 6, height: 6, fill: "#ddd" }), sv("line", { x1: 0, y1: 0, x2: 0, y2: 6, stroke: "#777", "stroke-width": 2.5 }))));
    let x0 = 0;
    const parts = [[w, "#fff", "#000", "W"], [d, `url(#${id})`, "#000", "D"], [l, "#222", "#fff", "L"]];
    for (const [k, fill, ink, tag] of parts) {
      const wd = n ? (width * k) / n : 0;
      if (wd > 0) {
        svg.append(sv("rect", { x: x0, y: 0, width: wd, height, fill, stroke: "#000", "stroke-width": 1 }));
        if (labels && wd > 46) {
          svg.append(sv("text", { x: x0 + wd / 2, y: height / 2 + 5, "text-anchor": "middle", "font-size": 14, "font-weight": 700, fill: ink, stroke: tag === "D" ? "#fff" : "none", "stroke-width": tag === "D" ? 3 : 0, "paint-order": "stroke", text: `${tag} ${(100 * k / n).toFixed(0)}%` }));
        }
      }
      x0 += wd;
    }
    if (!n) svg.append(sv("rect", { x: 0, y: 0, width, height, fill: "none", stroke: "#999", "stroke-dasharray": "4 3" }));
    return svg;
  }

  // ---- the per-SP panel
  function small(headers, rows, caption) {
    const t = el("table", {}, caption ? el("caption", { class: "note", text: caption }) : null,
      el("thead", {}, el("tr", {}, ...headers.map((h, i) => el("th", { scope: "col", class: i === 0 ? "text" : null, text: h })))));
    const b = el("tbody");
    for (const r of rows) b.append(el("tr", {}, ...r.map((c, i) => el("td", { class: i === 0 ? "text" : null }, c))));
    t.append(b);
    return el("div", { class: "scroll-x" }, t);
  }
  const CUT_NAMES = { time_control: "By time control", rating_band: "By rating band (mean of both ratings)", month: "By month", year: "By year", event: "By event", white: "By white player", black: "By black player" };
  function cutTables(sp) {
    const out = [];
    for (const cut of DATA.cuts) {
      let empty = 0;
      const rows = [];
      for (const v of cut.values) {
        const r = v.rows.find((x) => x[0] === sp);
        if (!r) { empty++; continue; }
        const [w, d, l, s, lo, hi, q] = r.slice(1);
        rows.push([v.value === "" ? "(unknown)" : v.value, int(w + d + l), `${w} / ${d} / ${l}`, fx(s, 3), interval(lo, hi), fq(q), fx(v.score, 3)]);
      }
      if (!rows.length) continue;
      out.push(el("h3", { text: CUT_NAMES[cut.key] || "By " + cut.key }),
        small([cut.key.replace("_", " "), "games", "W / D / L", "white score", "95% interval", "q in cell", "cell's pooled score"], rows,
          empty ? `${empty} ${cut.key.replace("_", " ")} value${empty > 1 ? "s" : ""} without games of this position left out.` : null));
    }
    return out;
  }
  function moveLabel(ply, san) {
    return ply % 2 === 0 ? `${ply / 2 + 1}. ${san}` : `${(ply + 1) / 2}\u2026 ${san}`;
  }
  function treeList(nodes, ply) {
    const ul = el("ul");
    for (const [san, uci, g, w, d, l, kids] of nodes) {
      const score = g ? (w + d / 2) / g : null;
      const line = [el("span", { class: "mv", text: moveLabel(ply, san) }), ` ${int(g)} game${g === 1 ? "" : "s"}, white ${fx(score, 3)} `, wdlBar(w, d, l, 90, 10, false), el("span", { class: "note", text: ` ${uci}` })];
      if (kids.length) {
        const details = el("details", {}, el("summary", {}, ...line));
        details.addEventListener("toggle", () => {
          if (details.open && details.children.length === 1) details.append(treeList(kids, ply + 1));
        }, { once: false });
        ul.append(el("li", {}, details));
      } else {
        ul.append(el("li", { class: "leaf" }, ...line));
      }
    }
    return ul;
  }
  // What the tree says when it has no move for an SP: true of the panel's games.
  function noTree(r, tree) {
    if (!r.games) return "No games.";
    const n = `${int(r.games)} game${r.games === 1 ? "" : "s"}`;
    if (tree.min_games > 1) return `${n}, no move played in ${tree.min_games} games or more (the tree leaves out rarer moves).`;
    return `${n}, none with a move (games ended before white's first move, e.g. forfeits).`;
  }
  function gamesList(sp) {
    const list = DATA.games[String(sp)];
    if (!list || !list.total) return [];
    const rows = list.first.map(([white, black, event, date, result, site, plies]) => {
      let where = "";
      if (/^https?:\/\//i.test(site)) {
        // An http(s) link only; set as an attribute value (never parsed as markup).
        where = el("a", { href: site, rel: "noopener noreferrer nofollow", target: "_blank", text: "game" });
      }
      return [white, black, event, date, result, plies ? String(plies) : "\u2013", where];
    });
    const more = list.total - list.first.length;
    return [el("h3", { text: "Games" }),
      small(["white", "black", "event", "date", "result", "plies", "link"], rows,
        more > 0 ? `The first ${list.first.length} game${list.first.length > 1 ? "s" : ""} read, and ${int(more)} more.` : `All ${list.total} game${list.total > 1 ? "s" : ""}.`)];
  }
  function panelFor(sp) {
    const r = DATA.sps[sp];
    const out = [];
    const close = el("button", { type: "button", class: "close", text: "Close" });
    close.addEventListener("click", () => { state.sp = null; showPanel(); renderFunnel(); writeHash(); });
    out.push(close, el("h2", { id: "panel-h", tabindex: -1, text: `SP ${sp}: ${r.start}` }));
    if (filtering()) out.push(el("p", { class: "note", text: "The panel shows all the page's games of this position, not the filter's." }));
    const stats = facts([
      ["games", int(r.games)],
      ["white wins / draws / black wins", `${r.w} / ${r.d} / ${r.l}`],
      ["white's score", fx(r.score, 3) + (num(r.lo) ? ` (95% interval ${interval(r.lo, r.hi)})` : "")],
      ["draw rate", pct(r.draw_rate)],
      ["against the pool", num(r.p) ? `p = ${fq(r.p)}, q = ${fq(r.q)}` + (isSig(r.q) ? " \u2014 differs beyond chance" : " \u2014 within chance") : "not tested"],
      ["excess over the Elo expectation", signed(r.excess)],
      ["mean rating", num(r.elo) ? String(r.elo) : null],
      ["mean evaluation", r.eval_games ? `${pawns(r.eval10)} after ply 10, ${pawns(r.eval20)} after ply 20 (${int(r.eval_games)} games with evaluations)` : null],
    ]);
    const bar = wdlBar(r.w, r.d, r.l, 520, 34, true);
    out.push(el("div", { class: "cols" }, el("div", {}, board(r.start)), el("div", {}, stats, bar,
      el("p", { class: "note", text: "Bar: white wins plain white, draws hatched, black wins black." }))));
    out.push(...cutTables(sp));
    out.push(...gamesList(sp));
    const tree = DATA.tree;
    if (tree) {
      const roots = tree.roots[String(sp)] || [];
      out.push(el("h3", { text: `Opening tree (first ${tree.depth} plies` + (tree.min_games > 1 ? `, moves with at least ${tree.min_games} games` : "") + ")" }));
      out.push(roots.length ? el("div", { class: "tree" }, treeList(roots, 0)) : el("p", { class: "note", id: "no-tree", text: noTree(r, tree) }));
      if (num(tree.pruned_below)) out.push(el("p", { class: "note", text: `To stay within its memory budget the tree dropped branches with fewer than ${tree.pruned_below} games; every count shown is exact.` }));
    }
    const pairs = DATA.pairs.filter((p) => p[0] === sp || p[1] === sp);
    if (pairs.length) {
      out.push(el("h3", { text: "Double Chess960 pairs with this position" }));
      out.push(small(["white SP / black SP", "games", "W / D / L", "white score"],
        pairs.slice(0, 100).map((p) => [pairLink(p), int(p[2]), `${p[3]} / ${p[4]} / ${p[5]}`, fx(p[6], 3)]),
        pairs.length > 100 ? `The first 100 of ${pairs.length} pairs.` : null));
    }
    return out;
  }
  // A pair in a panel: a button that shows the pair's row in the Double Chess960 section.
  function pairLink(p) {
    const b = el("button", { type: "button", class: "link pair", "data-pair": p[0] + "/" + p[1], text: `${p[0]} / ${p[1]}` });
    b.addEventListener("click", () => showPair(p[0], p[1]));
    return b;
  }
  function showPair(w, b) {
    const row = document.querySelector(`#pairs-table tr[data-pair="${w}/${b}"]`) || document.getElementById("dfrc");
    for (const tr of document.querySelectorAll("#pairs-table tr.selected")) tr.classList.remove("selected");
    if (row.tagName === "TR") row.classList.add("selected");
    row.scrollIntoView({ block: "center" });
  }
  function showPanel() {
    const panel = document.getElementById("panel");
    for (const tr of tbody.querySelectorAll("tr.selected")) tr.classList.remove("selected");
    if (state.sp === null) {
      panel.hidden = true;
      panel.removeAttribute("data-sp");
      return;
    }
    panel.replaceChildren(...panelFor(state.sp));
    panel.hidden = false;
    panel.dataset.sp = state.sp;
    rowsBySp[state.sp].classList.add("selected");
  }
  function openSp(sp) {
    state.sp = sp;
    showPanel();
    renderFunnel();
    writeHash();
    const h = document.getElementById("panel-h");
    if (h) { h.focus({ preventScroll: true }); document.getElementById("panel").scrollIntoView({ block: "start" }); }
  }

  // ---- Double Chess960: the pairs of start positions (white's SP, black's SP)
  const PAIRS_SHOWN = 300;
  function renderPairs() {
    const sec = document.getElementById("dfrc");
    sec.querySelectorAll(":scope > :not(h2)").forEach((n) => n.remove());
    if (!DATA.pairs.length) { sec.hidden = true; return; }
    const pairs = pairView.slice().sort((a, b) => b[2] - a[2] || a[0] - b[0] || a[1] - b[1]);
    const games = pairs.reduce((a, p) => a + p[2], 0);
    const lead = filtering()
      ? `Filtered: ${int(games)} of ${int(DATA.summary.counted_double_chess960)} Double Chess960 games (white and black from different start positions) in ${int(pairs.length)} pair${pairs.length === 1 ? "" : "s"}, most played first (the filters above apply to the pairs as to the table).`
      : `${int(games)} Double Chess960 game${games === 1 ? "" : "s"} (white and black from different start positions) in ${int(pairs.length)} pair${pairs.length === 1 ? "" : "s"}, most played first. They are not in the table of the 960 positions above; each position's panel lists its pairs.`;
    sec.append(el("p", { id: "pairs-count", text: lead }));
    const spButton = (sp) => {
      const b = el("button", { type: "button", class: "link", "aria-label": "Open start position " + sp, text: String(sp) });
      b.addEventListener("click", (e) => { e.stopPropagation(); openSp(sp); });
      return b;
    };
    const rows = pairs.slice(0, PAIRS_SHOWN).map((p) => [spButton(p[0]), DATA.sps[p[0]].start, spButton(p[1]), DATA.sps[p[1]].start, int(p[2]), `${p[3]} / ${p[4]} / ${p[5]}`, fx(p[6], 3)]);
    const t = small(["white SP", "white's back rank", "black SP", "black's back rank", "games", "W / D / L", "white score"], rows,
      pairs.length > PAIRS_SHOWN ? `The ${PAIRS_SHOWN} most played of ${int(pairs.length)} pairs (all in the CSV).` : null);
    t.querySelector("table").id = "pairs-table";
    t.querySelectorAll("tbody tr").forEach((tr, i) => { tr.dataset.pair = pairs[i][0] + "/" + pairs[i][1]; });
    const links = el("p", { class: "downloads" }, download("dfrc.csv", "text/csv", DATA.dfrc_csv, "Download the pairs (CSV, as pgn960 stats --dfrc-table writes it)", "download-dfrc"));
    if (filtering()) links.append(download("dfrc-filtered.csv", "text/csv", countsCsv(true), "Download the filtered pairs (CSV: the columns of pgn960 stats --dfrc-table the page computes, for these games)", "download-filtered-dfrc"));
    sec.append(t, links);
  }

  // ---- the SPs grouped by features of their back rank, tested by pgn960 stats's code
  const GROUP_COLUMNS = [
    { key: "group", label: "Group", text: true, first: 1 },
    { key: "members", label: "SPs", text: true },
    { key: "games", label: "Games", first: -1 },
    { key: "wdl", label: "W / D / L" },
    { key: "white_score", label: "White score", first: -1 },
    { key: "white_score_lo", label: "95% interval", first: -1 },
    { key: "draw_rate", label: "Draw rate", first: -1 },
    { key: "draw_rate_lo", label: "Draw 95% interval", first: -1 },
    { key: "q_value", label: "q-value", first: 1 },
    { key: "draw_q_value", label: "Draw q", first: 1 },
  ];
  // The groups of `table` under the filter: groups::group_table by the port, on the
  // filtered counts within the same strata (computed once per filter and feature).
  const groupCache = new Map();
  function filteredGroup(table) {
    const key = table.feature;
    if (groupCache.get("filter") !== filtered) { groupCache.clear(); groupCache.set("filter", filtered); }
    if (!groupCache.has(key)) groupCache.set(key, STATS.groupTable(filtered.wdl, filtered.strata, filtered.by, table.rows.map((r) => r.sps), table.feature === "mirror"));
    return groupCache.get(key);
  }
  // The groups of `table` as shown: the library's rows, or under a filter the port's.
  function groupRows(table) {
    if (!filtering()) return table.rows.map((r, i) => Object.assign({ i }, r));
    const g = filteredGroup(table);
    return table.rows.map((r, i) => Object.assign({ i, group: r.group, sps: r.sps }, g.rows[i]));
  }
  // The tests of `table` as shown (of the filtered games under a filter).
  const groupTests = (table) => (filtering() ? filteredGroup(table) : table);
  function homogeneityText(h) {
    return h ? `chi-square ${h.chi2.toFixed(1)} on ${h.df} df, p = ${fq(h.p)}` + (h.method === "permutation" ? " (permutation test)" : "") + (h.strata > 1 ? `, within ${h.strata} strata` : "") : "not testable";
  }
  function renderGroups() {
    const sec = document.getElementById("groups");
    sec.querySelectorAll(":scope > :not(h2)").forEach((n) => n.remove());
    const table = DATA.groups.find((g) => g.feature === state.group);
    if (!table) { sec.hidden = true; return; }
    const pick = el("select", { id: "f-group" }, ...DATA.groups.map((g) => el("option", { value: g.feature, text: g.title })));
    pick.value = state.group;
    pick.addEventListener("change", () => { state.group = pick.value; renderGroups(); writeHash(); document.getElementById("f-group").focus(); });
    sec.append(el("div", { class: "filters" }, el("label", { for: "f-group" }, "group the start positions by", pick)));
    const shownTests = groupTests(table);
    const tests = [el("li", { text: "White's score (W/D/L) across the groups: " + homogeneityText(shownTests.homogeneity) }),
      el("li", { text: "Draw rate across the groups: " + homogeneityText(shownTests.draw_homogeneity) })];
    if (table.feature === "mirror") tests.push(el("li", { id: "within-pairs", text: "An SP against its mirror image (W/D/L within each pair): " + homogeneityText(shownTests.within_pairs) }));
    sec.append(el("ul", { id: "group-tests" }, ...tests));
    if (filtering()) sec.append(el("p", { class: "note", text: "Filtered: the groups' counts, intervals, q-values and tests are those of the filtered games, computed in the page by its copy of pgn960 stats's tests." }));
    const rows = groupRows(table);
    const key = state.gsort, dir = state.gdir;
    rows.sort((a, b) => {
      if (key === "group") return dir * (a.i - b.i);
      const x = a[key], y = b[key];
      const mx = !num(x), my = !num(y);
      if (mx || my) return mx && my ? a.i - b.i : mx ? 1 : -1;
      return x !== y ? dir * (x - y) : a.i - b.i;
    });
    const head = el("tr");
    for (const c of GROUP_COLUMNS) {
      const th = el("th", { scope: "col", class: c.text ? "text" : null, "data-key": c.key });
      if (c.first) {
        const b = el("button", { type: "button", text: c.label });
        b.addEventListener("click", () => {
          state.gdir = state.gsort === c.key ? -state.gdir : c.first; state.gsort = c.key; renderGroups(); writeHash();
          document.querySelector(`#group-table th[data-key="${c.key}"] button`).focus(); // the table was drawn again
        });
        th.append(b);
        th.setAttribute("aria-sort", c.key === key ? (dir > 0 ? "ascending" : "descending") : "none");
      } else th.textContent = c.label;
      head.append(th);
    }
    const body = el("tbody");
    for (const r of rows) {
      const members = r.sps.length <= 2 ? r.sps.map((sp) => sp + " " + DATA.sps[sp].start).join(", ") : String(r.sps.length);
      body.append(el("tr", { "data-group": r.group },
        el("td", { class: "text", text: r.group }), el("td", { class: "text", text: members }), el("td", { text: int(r.games) }),
        el("td", { text: `${r.white_wins} / ${r.draws} / ${r.black_wins}` }), el("td", { text: fx(r.white_score, 3) }),
        el("td", { text: interval(r.white_score_lo, r.white_score_hi) }), el("td", { text: pct(r.draw_rate) }),
        el("td", { text: pctInterval(r.draw_rate_lo, r.draw_rate_hi) }), el("td", { text: fq(r.q_value) }), el("td", { text: fq(r.draw_q_value) })));
    }
    const t = el("table", { id: "group-table" },
      el("caption", { class: "note", text: `The start positions grouped by ${table.title}: each group's games summed, white's score and draw rate with their 95% Wilson intervals, and the q-values of the group against the pool of all groups (Benjamini\u2013Hochberg over the groups), by the code that tests the SP table.` }),
      el("thead", {}, head), body);
    sec.append(el("div", { class: "scroll" }, t));
    const links = el("p", { class: "downloads" }, download("groups.csv", "text/csv", DATA.groups_csv, "Download every grouping (CSV, as pgn960 stats --groups writes it)", "download-groups"));
    if (filtering()) {
      const f = STATS.csvNumber, h = shownTests;
      const cols = ["games", "white_wins", "draws", "black_wins", "white_score", "white_score_lo", "white_score_hi", "draw_rate", "draw_rate_lo", "draw_rate_hi", "p_value", "q_value", "draw_q_value"];
      const csv = ["feature,group,sps," + cols.join(",") + ",homogeneity_p,draw_homogeneity_p"].concat(groupRows(table).map((r) =>
        [table.feature, csvField(r.group), r.sps.join(" ")].concat(cols.map((c, i) => (i < 4 ? r[c] : f(r[c]))), [f(h.homogeneity && h.homogeneity.p), f(h.draw_homogeneity && h.draw_homogeneity.p)]).join(","))).join("\n") + "\n";
      links.append(download("groups-" + table.feature + "-filtered.csv", "text/csv", csv, "Download this grouping, filtered (CSV: as pgn960 stats --groups writes it for these games)", "download-groups-filtered"));
    }
    sec.append(links);
  }
  function csvField(text) {
    return /[",\n]/.test(text) ? '"' + text.replace(/"/g, '""') + '"' : text;
  }

  function applyHash() {
    readHash();
    applyFilters();
  }

  renderVerdict();
  renderSummary();
  readHash();
  renderFilters();
  renderTable();
  applyFilters();
  window.addEventListener("hashchange", applyHash);
  let drawnWidth = document.getElementById("funnel").clientWidth;
  window.addEventListener("resize", () => {
    const w = document.getElementById("funnel").clientWidth;
    if (w !== drawnWidth) { drawnWidth = w; renderFunnel(); }
  });
  document.body.dataset.ready = "1";
})();
