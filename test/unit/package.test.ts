// The manifest as the Marketplace and VS Code read it: strings in package.nls.json, menus that
// show where they should (their `when` clauses evaluated against the tree's real rows), the
// side bar and walkthrough pointing at files that exist, and a package that ships only what runs.
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { CONFIGURED_CONTEXT, TOPOLOGY_VIEW, WALKTHROUGH } from '../../src/extension/constants';
import { TREE_COMMAND_IDS } from '../../src/extension/tree/commandIds';
import { buildModel } from '../../src/extension/settingsModel';
import { buildTree, walk } from '../../src/extension/tree/tree';
import { contextValue, type TreeNode } from '../../src/extension/tree/nodes';
import { ENGLISH } from '../../src/extension/localize';

const root = join(__dirname, '../../..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const nls: Record<string, string> = JSON.parse(readFileSync(join(root, 'package.nls.json'), 'utf8'));
const menus = pkg.contributes.menus;
const commands: string[] = pkg.contributes.commands.map((c: { command: string }) => c.command);
const examples = JSON.parse(readFileSync(join(root, 'examples/settings.json'), 'utf8'));

/** Every string of the manifest, depth first. */
function* strings(v: unknown): Generator<string> {
  if (typeof v === 'string') yield v;
  else if (Array.isArray(v)) for (const x of v) yield* strings(x);
  else if (typeof v === 'object' && v !== null) for (const x of Object.values(v)) yield* strings(x);
}

/**
 * Evaluates the `viewItem =~ /re/` and `view == id` parts of a view menu's `when` against a row
 * (the only context keys these menus use; anything else fails the test so it gets looked at).
 */
function shows(when: string, view: string, item: string): boolean {
  return when.split('&&').every((part) => {
    const p = part.trim();
    const re = /^viewItem =~ \/(.*)\/$/.exec(p);
    if (re) return new RegExp(re[1]).test(item);
    const eq = /^view == (\S+)$/.exec(p);
    if (eq) return eq[1] === view;
    throw new Error(`unexpected clause in a view item menu: ${p}`);
  });
}

describe('package.json for the Marketplace', () => {
  test('metadata: icon, licence, links, categories beyond Other, at most 30 keywords', () => {
    assert.equal(pkg.license, 'Apache-2.0');
    assert.ok(existsSync(join(root, 'LICENSE')) && /Apache License\s+Version 2\.0/.test(readFileSync(join(root, 'LICENSE'), 'utf8')));
    assert.ok(existsSync(join(root, 'CHANGELOG.md')));
    for (const k of ['repository', 'homepage', 'bugs', 'galleryBanner', 'icon']) assert.ok(pkg[k], k);
    assert.ok(pkg.categories.some((c: string) => c !== 'Other'));
    assert.ok(pkg.keywords.length > 0 && pkg.keywords.length <= 30);
    // The icon: a 128x128 PNG (its IHDR), rendered from media/icon.svg by scripts/render-icon.mjs.
    const png = readFileSync(join(root, pkg.icon));
    assert.equal(png.toString('latin1', 1, 4), 'PNG');
    assert.deepEqual([png.readUInt32BE(16), png.readUInt32BE(20)], [128, 128]);
    assert.ok(existsSync(join(root, 'media/icon.svg')));
  });

  test('every %placeholder% has a string in package.nls.json, and every string is used', () => {
    const used = new Set([...strings(pkg)].flatMap((s) => [...s.matchAll(/^%([^%\s]+)%$/g)].map((m) => m[1])));
    for (const k of used) assert.ok(typeof nls[k] === 'string' && nls[k].length > 0, `package.nls.json lacks ${k}`);
    for (const k of Object.keys(nls)) assert.ok(used.has(k), `package.nls.json has ${k}, which the manifest does not use`);
  });

  test('Show Route and Analyze Keys: in the editor menu only where Key Routing is configured, after cut/copy/paste and the Command Palette', () => {
    const editor = menus['editor/context'];
    assert.deepEqual(editor.map((m: { command: string }) => m.command).sort(), ['keyRouting.analyzeKeys', 'keyRouting.showRoute']);
    for (const m of editor) {
      assert.match(m.when, new RegExp(`(^|&& )${CONFIGURED_CONTEXT}( &&|$)`), m.command);
      const group = m.group.split('@')[0];
      // VS Code's own groups there: navigation, 1_modification, 9_cutcopypaste, z_commands (Command Palette); groups sort by name.
      for (const theirs of ['1_modification', '9_cutcopypaste', 'z_commands']) assert.ok(group > theirs, `${group} sorts after ${theirs}`);
    }
    const explorer = menus['explorer/context'].find((m: { command: string }) => m.command === 'keyRouting.analyzeKeys');
    assert.match(explorer.when, new RegExp(CONFIGURED_CONTEXT));
  });

  test('every command a menu names is contributed; the row commands stay out of the Command Palette', () => {
    for (const [menu, items] of Object.entries(menus) as Array<[string, Array<{ command: string }>]>) {
      for (const m of items) assert.ok(commands.includes(m.command), `${menu}: ${m.command}`);
    }
    for (const id of TREE_COMMAND_IDS) {
      assert.ok(commands.includes(id), id);
      assert.ok(menus.commandPalette.some((m: { command: string; when?: string }) => m.command === id && m.when === 'false'), `${id} is hidden from the palette`);
    }
  });

  test('the side bar: a view container with our monochrome icon, the view, and a welcome for nothing configured', () => {
    const [container] = pkg.contributes.viewsContainers.activitybar;
    const svg = readFileSync(join(root, container.icon), 'utf8');
    assert.match(svg, /currentColor/);
    assert.doesNotMatch(svg, /#[0-9a-f]{3,6}\b/i, 'no fixed colours: VS Code colours the icon');
    assert.deepEqual(pkg.contributes.views[container.id].map((v: { id: string }) => v.id), [TOPOLOGY_VIEW]);
    const welcome = pkg.contributes.viewsWelcome;
    assert.ok(welcome.length > 0);
    for (const w of welcome) {
      assert.equal(w.view, TOPOLOGY_VIEW);
      assert.match(w.when, new RegExp(`!${CONFIGURED_CONTEXT}`));
      const text = nls[w.contents.slice(1, -1)];
      for (const [, id] of text.matchAll(/\(command:([\w.]+)/g)) assert.ok(commands.includes(id) || id.startsWith('workbench.'), id);
    }
    const withFolder = welcome.find((w: { when: string }) => /workspaceFolderCount > 0/.test(w.when));
    assert.match(nls[withFolder.contents.slice(1, -1)], /command:keyRouting\.addTopic[\s\S]*command:keyRouting\.openWalkthrough[\s\S]*command:keyRouting\.openSampleSettings/);
  });

  test('the rows\' menus show on the rows they are for', () => {
    const rows = [...walk(buildTree(buildModel(examples['keyRouting.topics'], examples['keyRouting.pulsarNamespaces'], undefined, examples['keyRouting.kafkaGroups']), ENGLISH))];
    const kinds = (id: string) => new Set(rows.filter((r) => menus['view/item/context'].some((m: { command: string; when: string }) => m.command === id && shows(m.when, TOPOLOGY_VIEW, contextValue(r)))).map((r) => r.kind));
    assert.deepEqual(kinds('keyRouting.tree.routeKey'), new Set(['topic']));
    assert.deepEqual(kinds('keyRouting.tree.openInPanel'), new Set(['topic']));
    assert.deepEqual(kinds('keyRouting.tree.whatIfRemove'), new Set(['consumer', 'member']));
    // Reveal: every row with a setting path, and only those; Copy: every row with something to copy.
    const reveal = rows.filter((r) => menus['view/item/context'].some((m: { command: string; when: string }) => m.command === 'keyRouting.tree.revealSetting' && shows(m.when, TOPOLOGY_VIEW, contextValue(r))));
    assert.deepEqual(reveal, rows.filter((r: TreeNode) => r.settingPath !== undefined));
    const copy = rows.filter((r) => menus['view/item/context'].some((m: { command: string; when: string }) => m.command === 'keyRouting.tree.copy' && shows(m.when, TOPOLOGY_VIEW, contextValue(r))));
    assert.deepEqual(copy, rows.filter((r: TreeNode) => r.copyText !== undefined));
    // Inline actions need an icon.
    for (const m of menus['view/item/context'].filter((x: { group: string }) => x.group.startsWith('inline'))) {
      assert.ok(pkg.contributes.commands.find((c: { command: string; icon?: string }) => c.command === m.command).icon, m.command);
    }
  });

  test('the walkthrough: every step has a picture that exists with alt text in every language, and completes on something that happens', () => {
    const [w] = pkg.contributes.walkthroughs;
    assert.equal(`${pkg.publisher}.${pkg.name}#${w.id}`, WALKTHROUGH);
    const settings = Object.keys(pkg.contributes.configuration.properties);
    const zh: Record<string, string> = JSON.parse(readFileSync(join(root, 'package.nls.zh-cn.json'), 'utf8'));
    for (const s of w.steps) {
      // The step's text is its (translated) description; the media is the picture alone, so
      // nothing in the walkthrough stays English in another display language.
      assert.deepEqual(Object.keys(s.media).sort(), ['altText', 'svg'], s.id);
      assert.ok(existsSync(join(root, s.media.svg)), s.media.svg);
      const alt = /^%(.+)%$/.exec(s.media.altText)?.[1] ?? '';
      assert.ok(nls[alt] && zh[alt] && zh[alt] !== nls[alt], `${s.id}: alt text ${s.media.altText} in English and Chinese`);
      assert.ok(s.completionEvents.length > 0, s.id);
      for (const e of s.completionEvents) {
        const [kind, arg] = e.split(':');
        if (kind === 'onCommand') assert.ok(commands.includes(arg), `${s.id}: ${e}`);
        else if (kind === 'onSettingChanged') assert.ok(settings.includes(arg), `${s.id}: ${e}`);
        else assert.fail(`${s.id}: unexpected completion event ${e}`);
      }
      for (const [, id] of nls[s.description.slice(1, -1)].matchAll(/\(command:([\w.]+)/g)) assert.ok(commands.includes(id) || id === `${TOPOLOGY_VIEW}.focus`, `${s.id}: ${id}`);
    }
    const sample = w.steps.find((s: { id: string }) => s.id === 'addTopic');
    assert.match(nls[sample.description.slice(1, -1)], /command:keyRouting\.useSampleSettings/);
  });

  test('the package ships only what runs (vsce ls with this .vscodeignore)', async () => {
    // The script `npm run package` runs on the built .vsix, loaded as the ES module it is.
    const { checkEntries, requiredFiles } = (await import(pathToFileURL(join(root, 'scripts/check-vsix.mjs')).href)) as {
      checkEntries(paths: string[], bytes: number | undefined): string[];
      requiredFiles(): string[];
    };
    const vsce = join(root, 'node_modules/@vscode/vsce/vsce');
    const r = spawnSync(process.execPath, [vsce, 'ls', '--no-dependencies'], { cwd: root, encoding: 'utf8', timeout: 120_000 });
    assert.equal(r.status, 0, r.stderr);
    const files = r.stdout.trim().split('\n').map((l) => l.trim()).filter(Boolean);
    assert.deepEqual(checkEntries(files, undefined), []);
    for (const f of requiredFiles()) assert.ok(files.includes(f), f);
    // The checker itself refuses what must not ship.
    assert.equal(checkEntries([...files, 'dist/extension.js.map', 'test-artifacts/ui/01-shot.png', 'src/cli.ts'], 250 * 1024).length, 4);
  });

  test('the Marketplace README: README.md without the sections marked repository only, and a link to them', async () => {
    const { marketplaceReadme, repositoryOnly } = (await import(pathToFileURL(join(root, 'scripts/marketplace-readme.mjs')).href)) as {
      marketplaceReadme(readme: string, homepage: string): string;
      repositoryOnly(readme: string): Array<{ heading: string; holds: string }>;
    };
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const left = repositoryOnly(readme);
    assert.deepEqual(
      left.map((s) => s.heading.replace(/ \(.*$/, '')),
      ['## Two commands', '### Kafka consumer groups', '### Clients: partitioners, hashing schemes, producers, typed keys', '## Command line', '## Exactness', '## Speed', '## Layout'],
    );
    const shipped = marketplaceReadme(readme, pkg.homepage);
    const headings = (t: string) => t.split('\n').filter((l) => /^#{2,3} /.test(l));
    // Every other heading stays, in order; the marked sections go with their subsections.
    const kept = headings(readme).filter((h) => !left.some((s) => s.heading === h) && !/^### (Consumer groups|import|analyze|More detail)/.test(h));
    assert.deepEqual(headings(shipped), kept);
    assert.ok(!/key-routing route --config|npm ci && npm test|src\/engine\/ +pure TypeScript/.test(shipped));
    for (const s of ['What it answers', 'In VS Code', 'Settings']) assert.ok(shipped.includes(`## ${s}`), s);
    for (const img of readme.matchAll(/!\[[^\]]*\]\(docs\/images\/[^)]+\)/g)) assert.ok(shipped.includes(img[0]), img[0]);
    assert.ok(shipped.trimEnd().endsWith(`In the [repository's README](${pkg.homepage}): ${left.slice(0, -1).map((s) => s.holds).join(', ')} and ${left[left.length - 1].holds}.`));
    assert.ok(shipped.length < readme.length * 0.6, `${shipped.length} of ${readme.length} characters`);
    // A marked subsection ends at the next heading of its level or above; a mark must stand right above a heading.
    const doc = ['# T', '## A', 'a', '<!-- repository only: b -->', '### B', 'b', '### C', 'c', '<!-- repository only: d -->', '## D', 'd', '### D1', 'd1', '## E', 'e'].join('\n');
    assert.deepEqual(headings(marketplaceReadme(doc, pkg.homepage)), ['## A', '### C', '## E']);
    assert.match(marketplaceReadme(doc, pkg.homepage), /\): b and d\.\n$/);
    assert.throws(() => marketplaceReadme('# T\n<!-- repository only: x -->\ntext\n', pkg.homepage), /right above a "## " or "### " heading/);
  });

  test('the packaged-script check: the known routes pass, a script that hashes wrong is named', async () => {
    const { checkPackagedScript } = (await import(pathToFileURL(join(root, 'scripts/check-vsix.mjs')).href)) as {
      checkPackagedScript(script: Buffer | string): Promise<string[]>;
    };
    const script = readFileSync(join(root, 'dist/extension.js'), 'utf8');
    assert.deepEqual(await checkPackagedScript(script), []);
    // murmur2's and Murmur3's multiplications off by a bit: every known route is then wrong.
    const broken = await checkPackagedScript(script.replace(/Math\.imul\(/g, 'Math.imul(1 ^ '));
    assert.ok(broken.some((p) => /routes user-1 to partition \d+ of orders, not 2/.test(p)), broken.join('\n'));
    assert.ok(broken.some((p) => /Order-3459134 to partition \d+ of payments, not 3/.test(p)), broken.join('\n'));
  });

  test('the packaged manifest\'s short nls keys: every language reads as the sources do, in less room', async () => {
    type Nls = Record<string, Record<string, string>>;
    const { shortenNlsKeys, shortNames } = (await import(pathToFileURL(join(root, 'scripts/nls-keys.mjs')).href)) as {
      shortenNlsKeys(manifest: unknown, nls: Nls): { manifest: typeof pkg; nls: Nls };
      shortNames(keys: string[]): Map<string, string>;
    };
    const { checkNls } = (await import(pathToFileURL(join(root, 'scripts/check-vsix.mjs')).href)) as {
      checkNls(manifest: unknown, nls: Nls, sourceManifest: unknown, sourceNls: Nls): string[];
    };
    const files = ['package.nls.json', 'package.nls.zh-cn.json'];
    const sourceNls: Nls = Object.fromEntries(files.map((f) => [f, JSON.parse(readFileSync(join(root, f), 'utf8'))]));
    const short = shortenNlsKeys(pkg, sourceNls);
    assert.deepEqual(checkNls(short.manifest, short.nls, pkg, sourceNls), []);
    // Renamed: no key of the sources is left, and the manifest's placeholders are the short names.
    const keys = Object.keys(short.nls['package.nls.json']);
    assert.deepEqual(keys.filter((k) => k in nls), []);
    assert.ok(keys.every((k) => k.length <= 2), keys.join(' '));
    const names = shortNames(Object.keys(nls));
    assert.equal(new Set(names.values()).size, names.size);
    assert.equal(short.manifest.contributes.commands[0].title, `%${names.get(pkg.contributes.commands[0].title.slice(1, -1))}%`);
    const deflated = (v: unknown) => deflateRawSync(JSON.stringify(v), { level: 9 }).length;
    const before = deflated(pkg) + files.reduce((n, f) => n + deflated(sourceNls[f]), 0);
    const after = deflated(short.manifest) + files.reduce((n, f) => n + deflated(short.nls[f]), 0);
    assert.ok(before - after > 1000, `${before} -> ${after} bytes deflated`);
    // A Chinese entry that says what the English one says is left to VS Code's fallback to the
    // default file (the product's name, the serializers' class names); checkNls above resolves so.
    const zhShort = short.nls['package.nls.zh-cn.json'];
    assert.deepEqual(Object.keys(zhShort).filter((k) => zhShort[k] === short.nls['package.nls.json'][k]), []);
    assert.ok(Object.keys(zhShort).length < Object.keys(sourceNls['package.nls.zh-cn.json']).length);
    // The check sees a translation moved to another string, a missing entry and a missing file.
    const [a, b] = keys;
    const swapped = { ...short.nls['package.nls.zh-cn.json'], [a]: short.nls['package.nls.zh-cn.json'][b], [b]: short.nls['package.nls.zh-cn.json'][a] };
    assert.deepEqual(checkNls(short.manifest, { ...short.nls, 'package.nls.zh-cn.json': swapped }, pkg, sourceNls), [
      'with package.nls.zh-cn.json the shipped manifest does not read as the sources\' do',
    ]);
    const { [b]: _dropped, ...withoutB } = short.nls['package.nls.json'];
    assert.ok(checkNls(short.manifest, { ...short.nls, 'package.nls.json': withoutB }, pkg, sourceNls).includes(`the shipped manifest refers to %${b}%, which package.nls.json does not define`));
    assert.deepEqual(checkNls(short.manifest, { 'package.nls.json': short.nls['package.nls.json'] }, pkg, sourceNls), ['package.nls.zh-cn.json is missing from the package']);
  });
});
