/**
 * zod compiles object parsers with `new Function` unless told not to. The page's CSP forbids eval, and Chromium
 * reports even a caught attempt as a policy violation, so the renderer runs zod without it. Imported first by
 * main.tsx, before any schema parses.
 */
import { z } from 'zod';

z.config({ jitless: true });
