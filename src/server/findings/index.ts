export { createFindingLedger } from './ledger.js';
export type { FindingLedger } from './ledger.js';
export { createFindingDetector } from './detect.js';
export type { FindingDetector, Culprit } from './detect.js';
export { assertNoFindings, describeFindings, describeFinding, FindingsError, isAllowed } from './report.js';
export type { AllowedFinding, AssertOptions } from './report.js';
export { MAX_FINDINGS_PER_RULE } from './finding.js';
export type { Finding, FindingCode, FindingRequest, Severity } from './finding.js';
