/**
 * Every renderer unit test starts from a clean DOM and storage, with React's act() environment on, so state
 * updates and effects are flushed the way Testing Library expects.
 */
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

afterEach(() => {
  cleanup();
  localStorage.clear();
});
