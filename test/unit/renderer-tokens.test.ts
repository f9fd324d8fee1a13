/**
 * The screens take spacing, type, radii and colours from renderer/src/ui/tokens.css only (the rule is written at the
 * top of that file). Every other renderer stylesheet is read declaration by declaration and each breach is named by
 * file:line, so a raw "padding: 6px 10px" or "color: #b35c00" cannot come back unnoticed. Inline styles in the
 * components are held to the same rule: they may carry computed geometry (a virtual row's top, a bar's width) only.
 * The keyboard focus ring is one token, var(--focus-ring), with its two offsets.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = new URL('../../renderer/src/', import.meta.url).pathname;
const TOKENS = 'ui/tokens.css';

function files(dir: string, pattern: RegExp): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name), pattern) : pattern.test(e.name) ? [join(dir, e.name)] : [],
  );
}

/** A length written out (6px, 0.5rem, 1.2em, 50%) rather than named; a bare 0 is not one. */
const RAW_LENGTH = /(?<![\w-])-?(?:\d*\.)?\d+(?:px|rem|em|pt|%)(?![\w-])/;
const RAW_COLOUR = /#[0-9a-f]{3,8}\b|\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\(/i;
// Keyword sizes would be a second type scale beside the tokens.
const SIZE_KEYWORD = /\b(?:xx-small|x-small|small|medium|large|x-large|xx-large|smaller|larger)\b/;
// CSS's named colours minus the two that are not a choice of colour (transparent, currentColor).
const NAMED_COLOUR =
  /(?<![\w-])(?:white|black|red|green|blue|gray|grey|orange|yellow|purple|pink|brown|navy|teal|silver|maroon|olive|lime|aqua|fuchsia|crimson|gold|indigo|violet|tomato|salmon|coral)(?![\w-])/i;

const SPACING = /^(?:margin(?:-[a-z-]+)?|padding(?:-[a-z-]+)?|gap|row-gap|column-gap)$/;
const RADIUS = /^border(?:-[a-z]+)*-radius$/;
// Properties where a colour goes, so a bare word there (white, red) is a colour named outside the tokens.
const COLOUR =
  /^(?:color|background(?:-color)?|border(?:-[a-z]+)*|outline(?:-color)?|fill|stroke|box-shadow|text-shadow|caret-color|accent-color|text-decoration(?:-color)?|--[\w-]+)$/;
// A 1 px border or outline is the hairline: it has a name, so a change of weight is one line.
const LINE = /^(?:border(?:-top|-right|-bottom|-left|-block|-inline)?(?:-width)?|outline(?:-width)?)$/;

interface Breach {
  line: number;
  property: string;
  value: string;
  rule: string;
}

/** Every declaration of a stylesheet that breaks the rule, with its line. Comments are blanked, lines kept. */
function breaches(css: string): Breach[] {
  const text = css.replace(/\/\*[\s\S]*?\*\//g, (c) => c.replace(/[^\n]/g, ' '));
  const found: Breach[] = [];
  // A declaration ends at ; or }. A selector's "a:hover {" never matches: its value would have to cross the {.
  for (const m of text.matchAll(/(--[\w-]+|[a-z-]+)\s*:\s*([^;{}]*?)\s*(?=[;}])/gi)) {
    const property = m[1]!.toLowerCase();
    const value = m[2]!;
    const line = text.slice(0, m.index).split('\n').length;
    const add = (rule: string) => found.push({ line, property, value, rule });
    // calc() of tokens passes: what is checked is what is left once var(--…) references are set aside.
    const bare = value.replace(/var\(--[\w-]+\)/g, '');
    if (SPACING.test(property) && RAW_LENGTH.test(bare)) add('spacing is var(--space-N)');
    if (property === 'font-size' && (RAW_LENGTH.test(bare) || SIZE_KEYWORD.test(bare)))
      add('font-size is var(--font-*)');
    if (property === 'font' && (RAW_LENGTH.test(bare) || SIZE_KEYWORD.test(bare))) add('font-size is var(--font-*)');
    if (RADIUS.test(property) && RAW_LENGTH.test(bare)) add('border-radius is var(--radius-*)');
    // A hex or rgb() is a colour in any property; a bare word is one only where a colour goes.
    if (RAW_COLOUR.test(bare) || (COLOUR.test(property) && NAMED_COLOUR.test(bare))) add('colour is a token');
    if (LINE.test(property) && /(?<![\w.-])1px\b/.test(bare)) add('a 1px line is var(--hairline)');
    // One focus ring: its line and its two offsets are tokens, so it cannot drift apart screen by screen again.
    if (/^outline(?:-color)?$/.test(property) && /--focus\b/.test(value) && value !== 'var(--focus-ring)')
      add('a focus ring is var(--focus-ring)');
    if (property === 'outline-offset' && !/^var\(--focus-ring-(?:offset|inset)\)$/.test(value))
      add('an outline offset is var(--focus-ring-offset) or var(--focus-ring-inset)');
  }
  return found;
}

/** Inline styles in components: only computed geometry, never spacing, type, radius or colour. */
function inlineBreaches(tsx: string): { line: number; key: string }[] {
  const found: { line: number; key: string }[] = [];
  for (const m of tsx.matchAll(/style=\{\{([^}]*)\}\}/g)) {
    for (const k of m[1]!.matchAll(
      /\b(margin\w*|padding\w*|gap|rowGap|columnGap|font\w*|lineHeight|border\w*|outline\w*|color|background\w*|fill|stroke|boxShadow)\s*:/g,
    )) {
      found.push({ line: tsx.slice(0, m.index + 8 + k.index!).split('\n').length, key: k[1]! });
    }
  }
  return found;
}

describe('the rule, on examples', () => {
  it('names each kind of breach with its line', () => {
    const css = [
      '/* padding: 6px; in a comment is not a declaration */',
      '.a:hover { padding: 6px var(--space-2); }',
      '.b {',
      '  gap: 10px;',
      '  margin: calc(-1 * var(--space-3)) 0 0;',
      '  font-size: 13px;',
      '  border-radius: 4px;',
      '  color: #b35c00;',
      '  background: rgb(0 0 0 / 50%);',
      '  border: 1px solid var(--border);',
      '  border-left: 4px solid var(--accent);',
      '  outline: 2px solid var(--focus);',
      '  --chart: white;',
      '  font-size: small;',
      '  outline-offset: 1px;',
      '}',
    ].join('\n');
    expect(breaches(css).map((b) => `${b.line} ${b.property}`)).toEqual([
      '2 padding',
      '4 gap',
      '6 font-size',
      '7 border-radius',
      '8 color',
      '9 background',
      '10 border',
      '12 outline',
      '13 --chart',
      '14 font-size',
      '15 outline-offset',
    ]);
  });

  it('lets tokens, calc() of tokens, 0, hairlines and sizes through', () => {
    const css = [
      '@media (prefers-color-scheme: dark) {',
      '  .a { margin: 0 calc(var(--space-1) * -1) var(--space-2); gap: var(--space-1) var(--space-3); }',
      '}',
      '.b { width: calc(100vw - 48px); height: 28px; border: var(--hairline) solid transparent; }',
      '.c { font: inherit; font-size: var(--font-sm); border-radius: var(--radius-pill); color: currentColor; }',
      '.d { outline-offset: var(--focus-ring-inset); letter-spacing: 0.04em; box-shadow: inset 3px 0 0 var(--accent); }',
      '.e:focus-visible { outline: var(--focus-ring); outline-offset: var(--focus-ring-offset); }',
    ].join('\n');
    expect(breaches(css)).toEqual([]);
  });

  it('finds spacing and colour in an inline style, not geometry', () => {
    const tsx = '<div style={{ top }} />\n<div\n  style={{ width: c.width, padding: 6, color: "red" }} />';
    expect(inlineBreaches(tsx)).toEqual([
      { line: 3, key: 'padding' },
      { line: 3, key: 'color' },
    ]);
  });
});

describe('renderer stylesheets use the tokens', () => {
  const sheets = files(root, /\.css$/).filter((f) => relative(root, f) !== TOKENS);

  it('reads every stylesheet of the screens', () => {
    expect(sheets.length).toBeGreaterThanOrEqual(10);
  });

  it.each(sheets.map((f) => relative(root, f)))('%s', (file) => {
    const found = breaches(readFileSync(join(root, file), 'utf8')).map(
      (b) => `renderer/src/${file}:${b.line}  ${b.property}: ${b.value}  (${b.rule})`,
    );
    expect(found).toEqual([]);
  });

  it('components set no spacing, type, radius or colour inline', () => {
    const found = files(root, /\.tsx$/).flatMap((f) =>
      inlineBreaches(readFileSync(f, 'utf8')).map((b) => `renderer/src/${relative(root, f)}:${b.line}  ${b.key}`),
    );
    expect(found).toEqual([]);
  });

  it('tokens.css defines every token the stylesheets use', () => {
    const tokens = readFileSync(join(root, TOKENS), 'utf8');
    const defined = new Set([...tokens.matchAll(/^\s*(--[\w-]+)\s*:/gm)].map((m) => m[1]!));
    const missing = sheets.flatMap((f) => {
      const css = readFileSync(f, 'utf8');
      const local = new Set([...css.matchAll(/^\s*(--[\w-]+)\s*:/gm)].map((m) => m[1]!));
      return [...css.matchAll(/var\((--[\w-]+)/g)]
        .map((m) => m[1]!)
        .filter((name) => !defined.has(name) && !local.has(name))
        .map((name) => `renderer/src/${relative(root, f)}: ${name}`);
    });
    expect([...new Set(missing)]).toEqual([]);
  });
});
