// ESLint with typescript-eslint's type-aware rules over the sources, the tests and the build scripts.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
