/**
 * Every renderer unit test starts from a clean DOM and storage, with React's act() environment on, so state
 * updates and effects are flushed the way Testing Library expects.
 */
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

// `waitFor` waits on the event with the suite's own timeout as its only bound (vitest.config.ts), not Testing
// Library's one second: the first grid read over the real core starts its worker thread, which on a busy machine
// takes longer than that.
configure({ asyncUtilTimeout: 20_000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
});
