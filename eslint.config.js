import { builtinModules } from 'node:module';
import js from '@eslint/js';
import { defineConfig, globalIgnores } from 'eslint/config';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

const nodeBuiltins = builtinModules.flatMap((name) => [name, `${name}/*`]);

/** Folders enforce where code may run: `shared/` runs everywhere, `renderer/` only in the sandboxed page. */
const noElectron = { name: 'electron', message: 'Only electron/ may import electron.' };
const noNodeBuiltins = {
  group: ['node:*', ...nodeBuiltins],
  message: 'Node built-ins are reachable only from electron/; this code also runs in the renderer.',
};
const noElectronFolder = {
  regex: '(^|/)electron/',
  message: 'electron/ is main-process code; reach it through window.api (renderer) or keep it out of shared/.',
};
const noRendererFolder = { regex: '(^|/)renderer/', message: 'shared/ must not depend on the renderer.' };

const realClock =
  'Tests read time from test/support/clock.ts (TEST_NOW, TEST_TODAY, testClock): the sandbox anchors its data to ' +
  'the date, so a test on the real clock passes on some days and fails on others.';

export default defineConfig([
  globalIgnores(['out/', 'dist/', 'release/', 'node_modules/', 'test-results/', 'coverage/', '.electron-native/']),
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    ignores: ['renderer/**'],
    languageOptions: { globals: globals.node },
  },
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs' },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['shared/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        { paths: [noElectron], patterns: [noNodeBuiltins, noElectronFolder, noRendererFolder] },
      ],
      'no-restricted-globals': [
        'error',
        ...['window', 'document', 'process', 'Buffer', 'require', '__dirname'].map((name) => ({
          name,
          message: 'shared/ runs in both main and renderer; take what you need as a parameter.',
        })),
      ],
    },
  },
  {
    files: ['renderer/**'],
    ...reactHooks.configs.flat.recommended,
    languageOptions: { globals: globals.browser },
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      'no-restricted-imports': ['error', { paths: [noElectron], patterns: [noNodeBuiltins, noElectronFolder] }],
    },
  },
  {
    // Components read and act through their folder's *-queries.ts (issue 34): one place a screen's reads, keys and
    // invalidations are seen together and changed once.
    files: ['renderer/**/*.tsx'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [noElectron],
          patterns: [
            noNodeBuiltins,
            noElectronFolder,
            {
              group: ['**/query/ipc-query', '**/query/journaled-action'],
              importNames: ['useIpcQuery', 'useIpcMutation', 'useJournaledAction'],
              message: "Call the channel from the folder's *-queries.ts and use that hook here.",
            },
          ],
        },
      ],
    },
  },
  {
    // A function past about 120 lines is where a reader loses the thread (issue 34): a warning, so a split is
    // planned rather than forced. Tests are left out: a describe block is a function that holds a whole file.
    files: ['electron/**/*.ts', 'shared/**/*.ts', 'renderer/**/*.{ts,tsx}', 'scripts/**/*.{js,mjs,cjs}'],
    rules: { 'max-lines-per-function': ['warn', { max: 120, skipBlankLines: true, skipComments: true }] },
  },
  {
    // Time is an input: no test reads the wall clock or starts a sandbox on it. A test about the real date, or
    // one timing real files, says so with an eslint-disable comment.
    files: ['test/**/*.ts'],
    ignores: ['test/support/clock.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']", message: realClock },
        { selector: "NewExpression[callee.name='Date'][arguments.length=0]", message: realClock },
      ],
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['**/electron/sandbox/server'],
              importNames: ['startSandbox'],
              message:
                'Start sandboxes with startTestSandbox or openSandbox (test/support/sandbox.ts): they pin the clock.',
            },
          ],
        },
      ],
    },
  },
]);
