// The framework servers of test/fixtures/frameworks.test.ts again, with
// the default number of runs, as users run the suite.
import t from 'tap';
import { testFrameworks } from '../fixtures/frameworks.js';

testFrameworks(t, []);
