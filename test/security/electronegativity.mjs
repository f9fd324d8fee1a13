#!/usr/bin/env node
/**
 * Static security scan of the Electron code with @doyensec/electronegativity, as CI runs it (.ci/run).
 *
 *   node test/security/electronegativity.mjs [--input electron] [--out test-results]
 *
 * Writes the tool's SARIF report to <out>/electronegativity.sarif, reads it back, prints a summary table and exits
 * non-zero when anything is left to look at:
 *   - any HIGH or MEDIUM finding;
 *   - any LOW or INFORMATIONAL finding too: a lower finding may stay only when a comment the scan honours
 *     (`// eng-disable CHECK_ID` or `/* eng-disable CHECK_ID *\/` on the reported line) says why, and then the tool
 *     no longer reports it;
 *   - an `eng-disable` comment with no reason: the reason follows the check names in the same comment, or sits in
 *     the comment lines right above it;
 *   - a file the tool could not parse (it would silently go unscanned).
 * Exit codes: 0 clean, 1 findings or unjustified suppressions, 2 the scan itself failed.
 *
 * Why the programmatic entry point and SARIF rather than the CLI's `-o report.csv`: it is the same engine the CLI
 * wraps, but it also returns the files it failed to parse (the CLI drops those when writing a report), and the CLI's
 * CSV writer writes header and rows with two concurrent appends, which can interleave into a corrupt file. SARIF has
 * no severity field, so each SARIF result is matched to the tool's returned finding for its severity.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const require = createRequire(import.meta.url);

// AVAILABLE_SECURITY_FIXES_GLOBAL_CHECK downloads Electron's release list from GitHub and judges the Electron
// version found in a package.json. CI runs with loopback only, the scanned folder holds no package.json, and
// Electron updates are the dependency process's job, so it is left out.
const EXCLUDED_CHECKS = ['AvailableSecurityFixesGlobalCheck'];
const FAILING = new Set(['HIGH', 'MEDIUM']);
const SEVERITY_ORDER = ['HIGH', 'MEDIUM', 'LOW', 'INFORMATIONAL'];

function parseArgs(argv) {
  const args = { input: join(ROOT, 'electron'), out: join(ROOT, 'test-results') };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if ((flag === '--input' || flag === '--out') && value) {
      args[flag.slice(2)] = resolve(value);
      i++;
    } else {
      throw new Error(`unknown argument ${flag}; usage: electronegativity.mjs [--input DIR] [--out DIR]`);
    }
  }
  return args;
}

/** The installed Electron, so the tool judges defaults of the version we ship, not of Electron 0.1. */
function electronVersion() {
  const pkg = JSON.parse(readFileSync(require.resolve('electron/package.json'), 'utf8'));
  if (typeof pkg.version !== 'string') throw new Error('cannot read the installed Electron version');
  return pkg.version;
}

const SCANNED = /\.(js|jsx|ts|tsx|html|htm)$/i;

function scannedFiles(dir) {
  const files = [];
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files.push(...scannedFiles(path));
    else if (SCANNED.test(name)) files.push(path);
  }
  return files;
}

// The tool's own pattern (dist/util/exceptions.js): what follows `eng-disable` up to the first non-word character.
const ENG_DISABLE = /(?:\/\*|\/\/|<!--)[ \t]*eng-disable[ \t]+([\w \t]+)/i;
const CHECK_NAME = /^[A-Za-z0-9_]*check$/i;

/** Every `eng-disable` comment in the scanned files, with the checks it names and the reason it gives. */
function findSuppressions(files, root) {
  const found = [];
  for (const file of files) {
    const lines = readFileSync(file, 'utf8').split('\n');
    lines.forEach((line, index) => {
      const match = ENG_DISABLE.exec(line);
      if (!match) return;
      const checks = match[1].split(/[ \t]+/).filter((w) => CHECK_NAME.test(w));
      // The rest of this comment after the check names: to the end of a line comment, or to `*/` / `-->`.
      const afterNames = line.slice(match.index + match[0].length);
      const opener = line.slice(match.index, match.index + 4);
      const closer = opener.startsWith('/*') ? '*/' : opener.startsWith('<!--') ? '-->' : null;
      const inComment =
        closer && afterNames.includes(closer) ? afterNames.slice(0, afterNames.indexOf(closer)) : afterNames;
      let reason = inComment.replace(/^[\s:;,.–—-]+/, '').trim();
      if (reason.length < 8) {
        // Otherwise the comment lines directly above.
        const above = [];
        for (let i = index - 1; i >= 0; i--) {
          const text = lines[i].trim();
          if (!/^(\/\/|\*|\/\*)/.test(text)) break;
          above.unshift(text.replace(/^(\/\/|\/\*+|\*\/?)\s?/, '').replace(/\*\/$/, ''));
        }
        const why = above.findIndex((text) => /^why eng-disable:/i.test(text));
        reason = (why >= 0 ? above.slice(why) : above)
          .join(' ')
          .replace(/^why eng-disable:\s*/i, '')
          .trim();
      }
      found.push({ file: relative(root, file), line: index + 1, checks, reason });
    });
  }
  return found;
}

async function readSarifWhenWritten(path, expected) {
  // The tool starts an asynchronous write and returns; wait until the whole report is there.
  const deadline = Date.now() + 10_000;
  for (;;) {
    try {
      const sarif = JSON.parse(readFileSync(path, 'utf8'));
      const results = sarif.runs?.[0]?.results;
      if (Array.isArray(results) && results.length === expected) return results;
      if (Array.isArray(results)) throw new Error(`SARIF has ${results.length} results, the tool returned ${expected}`);
    } catch (error) {
      if (Date.now() > deadline) throw new Error(`no complete SARIF report at ${path}: ${error.message}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

function table(headers, rows) {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) =>
    cells
      .map((c, i) => String(c).padEnd(widths[i]))
      .join('  ')
      .trimEnd();
  return [line(headers), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)].join('\n');
}

async function main() {
  const started = Date.now();
  const { input, out } = parseArgs(process.argv.slice(2));
  if (!existsSync(input)) throw new Error(`input ${input} does not exist`);
  mkdirSync(out, { recursive: true });
  const report = join(out, 'electronegativity.sarif');
  rmSync(report, { force: true });

  // i18n picks its locale from LANG; "C.UTF-8" and the like have no messages, so pin the one that ships.
  process.env.LANG = 'en-US';
  const { default: run } = await import('@doyensec/electronegativity');
  const version = electronVersion();
  const result = await run({
    input,
    output: report,
    isSarif: true,
    isRelative: true,
    electronVersionOverride: version,
    excludeFromScan: EXCLUDED_CHECKS,
  });

  const sarifResults = await readSarifWhenWritten(report, result.issues.length);
  const key = (file, line, id) => `${file}:${line}:${id}`;
  const returned = new Map(result.issues.map((i) => [key(i.file, i.location.line || 1, i.id), i]));
  const findings = sarifResults.map((r) => {
    const region = r.locations?.[0]?.physicalLocation;
    const uri = region?.artifactLocation?.uri;
    const file = !uri || uri === 'file:///' ? 'N/A' : uri; // the tool writes file:/// for app-wide findings
    const line = region?.region?.startLine ?? 1;
    const issue = returned.get(key(file, line, r.ruleId));
    if (!issue) throw new Error(`SARIF result ${r.ruleId} at ${file}:${line} is not among the tool's findings`);
    return {
      severity: issue.severity.name,
      confidence: issue.confidence.name,
      check: r.ruleId,
      where: `${file}:${line}`,
      review: issue.manualReview ? 'yes' : '',
      description: r.message?.text ?? '',
    };
  });
  findings.sort((a, b) => SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity));

  const files = scannedFiles(input);
  const suppressions = findSuppressions(files, input);
  const unjustified = suppressions.filter((s) => s.reason.length < 8 || s.checks.length === 0);
  const unparsed = result.errors.filter((e) => !e.tolerable);
  const seconds = ((Date.now() - started) / 1000).toFixed(1);

  console.log(
    `electronegativity: ${relative(ROOT, input) || '.'} (${files.length} files, Electron ${version}, ` +
      `${result.globalChecks} global + ${result.atomicChecks} atomic checks) in ${seconds}s; report ${relative(ROOT, report)}`,
  );
  if (findings.length > 0) {
    console.log(
      '\n' +
        table(
          ['severity', 'confidence', 'check', 'where', 'review', 'description'],
          findings.map((f) => [f.severity, f.confidence, f.check, f.where, f.review, f.description]),
        ),
    );
  }
  if (suppressions.length > 0) {
    console.log('\nsuppressed by eng-disable comments (the scan honours them):');
    console.log(
      table(
        ['where', 'checks', 'reason'],
        suppressions.map((s) => [
          `${s.file}:${s.line}`,
          s.checks.join(' ') || '(none)',
          s.reason.length > 100 ? `${s.reason.slice(0, 99)}…` : s.reason || '(no reason)',
        ]),
      ),
    );
  }
  for (const e of unparsed) console.log(`\ncould not parse ${relative(input, e.file)}: ${e.message}`);

  const counts = Object.fromEntries(SEVERITY_ORDER.map((s) => [s, findings.filter((f) => f.severity === s).length]));
  const summary = SEVERITY_ORDER.map((s) => `${counts[s]} ${s.toLowerCase()}`).join(', ');
  const failing = findings.filter((f) => FAILING.has(f.severity)).length;
  const problems = [
    failing > 0 && `${failing} HIGH/MEDIUM finding(s)`,
    findings.length > failing && `${findings.length - failing} LOW/INFORMATIONAL finding(s) with no eng-disable reason`,
    unjustified.length > 0 && `${unjustified.length} eng-disable comment(s) without a reason`,
    unparsed.length > 0 && `${unparsed.length} file(s) the scanner could not parse`,
  ].filter(Boolean);
  console.log(`\nfindings: ${summary}; suppressions: ${suppressions.length}`);
  if (problems.length > 0) {
    console.log(`FAILED: ${problems.join('; ')}`);
    process.exitCode = 1;
  } else {
    console.log('passed: no findings left');
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  main().catch((error) => {
    console.error(`electronegativity scan could not run: ${error instanceof Error ? error.stack : String(error)}`);
    process.exitCode = 2;
  });
}
