// ESLint with typescript-eslint's type-aware rules over the sources, the tests and the build scripts.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const SOURCE_FILES = ['**/*.ts', '**/*.cts'];
const NOT_SOURCE = ['test/**', 'console/**', 'bench/**', 'scripts/**'];

export default tseslint.config(
  { ignores: ['dist/**', 'generated/**', 'node_modules/**', '.cfn-local/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.cts'],
    languageOptions: { parserOptions: { project: './tsconfig.test.json', tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-unnecessary-condition': 'error',
      // `import('yaml').Document` types keep lazily loaded modules out of the startup path
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false },
      ],
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    },
  },
  // The server's own code (not the tests, not the browser console) under typescript-eslint's strictest type-aware
  // set, less five rules that fight how it is written on purpose.
  ...tseslint.configs.strictTypeChecked.map((config) => ({ ...config, files: SOURCE_FILES, ignores: NOT_SOURCE })),
  {
    files: SOURCE_FILES,
    ignores: NOT_SOURCE,
    rules: {
      // `!` after a lookup the code has just checked (a Map's get after its has, a row read after its insert)
      '@typescript-eslint/no-non-null-assertion': 'off',
      // `(x) => void work(x)` and `() => reply.send(...)` arrow shorthands
      '@typescript-eslint/no-confusing-void-expression': 'off',
      // String() of template property values: the schema check has already typed them as scalars
      '@typescript-eslint/no-base-to-string': 'off',
      // async functions that implement an async interface (operation runs, fastify routes) without awaiting
      '@typescript-eslint/require-await': 'off',
      // `delete record[key]` on records the code owns (a patch's null, a consumed input member)
      '@typescript-eslint/no-dynamic-delete': 'off',
      '@typescript-eslint/restrict-template-expressions': ['error', { allowNumber: true, allowBoolean: true }],
    },
  },
  {
    // a FastifyReply is thenable: awaiting `reply.send()` would wait for the response to be written
    files: ['server/services/**/*.ts'],
    rules: { '@typescript-eslint/return-await': 'off' },
  },
  {
    // the web console: browser code with its own TypeScript settings (DOM, Preact's JSX)
    files: ['console/**/*.ts', 'console/**/*.tsx'],
    languageOptions: { parserOptions: { project: './console/tsconfig.json', tsconfigRootDir: import.meta.dirname } },
  },
  {
    // The status door as a rule: a stack's status is written only by state-machine/transitions.ts.
    files: ['**/*.ts'],
    // the door's own unit tests (test/unit/state-machine) call it directly
    ignores: ['state-machine/transitions.ts', 'state-machine/outcomes.ts', 'storage/**', 'test/**'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.property.name='writeStatus']",
          message: 'A stack status changes only through setStackStatus (state-machine/transitions.ts).',
        },
        {
          selector: "CallExpression[callee.name='setStackStatus'] > Literal.arguments",
          message:
            "An operation reaches its row's outcome (reachOutcome, state-machine/outcomes.ts), not a literal status.",
        },
        {
          selector: "CallExpression[callee.object.property.name='stacks'][callee.property.name='insert']",
          message: "A stack's first row and status go through insertStack (state-machine/transitions.ts).",
        },
      ],
    },
  },
  {
    // tests read JSON that the AWS CLI and boto3 print
    files: ['test/**/*.ts'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    files: ['**/*.cjs'],
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
  {
    files: ['**/*.mjs', '**/*.cjs', '**/*.js'],
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        URL: 'readonly',
        Buffer: 'readonly',
        setTimeout: 'readonly',
        setImmediate: 'readonly',
        URLSearchParams: 'readonly',
        fetch: 'readonly',
        AbortController: 'readonly',
        clearTimeout: 'readonly',
        performance: 'readonly',
        require: 'readonly',
        module: 'writable',
        __dirname: 'readonly',
      },
    },
  },
);
