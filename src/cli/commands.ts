/**
 * Every `key-routing` command, in the order help lists them. A new command: export a
 * `CommandSpec` from its file and add it here.
 */
import type { CommandSpec } from './command';
import { routeSpec } from './route';
import { rangesSpec } from './ranges';
import { whatIfSpec } from './whatIf';
import { bundleSpec } from './bundle';
import { analyzeSpec } from './analyze';
import { compareSpec } from './compare';
import { orderingSpec } from './ordering';
import { splitSpec } from './split';
import { assignChunksSpec } from './assignChunks';
import { assignmentSpec } from './assignment';
import { importSpec } from './import';

export const COMMANDS: readonly CommandSpec[] = [routeSpec, rangesSpec, whatIfSpec, assignmentSpec, bundleSpec, analyzeSpec, compareSpec, orderingSpec, splitSpec, assignChunksSpec, importSpec];
