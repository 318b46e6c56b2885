/**
 * An operation the spec does not have, for a test that needs shapes the spec
 * lacks (other paths, methods, a deprecation): no parameters, no responses,
 * authenticated, not deprecated, unless `more` says otherwise.
 */
import type { HttpMethod, OperationDescriptor } from '../../spec/operations.js';

export function decoyOperation(method: HttpMethod, path: string, more: Partial<OperationDescriptor> = {}): OperationDescriptor {
  return { operationId: `${method} ${path}`, method, path, parameters: [], responses: [], deprecated: false, requiresAuth: true, ...more };
}
