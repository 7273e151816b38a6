// Runs the command (harness/run/command.ts) with tsx's loader in this process:
// the package ships TypeScript sources, and node 20 runs no TypeScript itself.
import { register } from 'tsx/esm/api';

register();
await import('../harness/run/command.ts');
