// `petstore conform` fails every broken variant, in one of the families it
// breaks: the second half of the variants (see implementations-broken.test.ts).
import t from 'tap';
import { brokenVariants, testBrokenVariant } from './broken-variants.js';

for (const variant of brokenVariants(2)) testBrokenVariant(t, variant);
