// The framework servers of test/conformance/frameworks.test.ts again, with
// the default number of runs, as users run the suite.
import t from 'tap';
import { testFrameworks } from '../conformance/frameworks.js';

testFrameworks(t, []);
