import { loadAwsServiceSpec } from '@aws-cdk/aws-service-spec';
const db = await loadAwsServiceSpec();
const all = db.all('resource');
let collisions = 0, badNames = new Set(), tdRepl = 0, tdReplTypes = new Set(), nestedRefs = 0;
for (const r of all) {
  const tds = db.follow('usesType', r).map(x => x.entity);
  const names = new Map();
  for (const td of tds) {
    if (names.has(td.name)) collisions++;
    names.set(td.name, td);
    if (!/^[A-Za-z0-9_]+$/.test(td.name)) badNames.add(td.name);
    for (const p of Object.values(td.properties)) if (p.causesReplacement === 'yes' || p.causesReplacement === 'maybe') { tdRepl++; tdReplTypes.add(r.cloudFormationType); }
  }
  // refs pointing outside usesType?
  const ids = new Set(tds.map(t => t.$id));
  const walk = (t) => { if (t.type === 'ref' && !ids.has(t.reference.$ref)) nestedRefs++; if (t.element) walk(t.element); if (t.types) t.types.forEach(walk); };
  for (const p of Object.values(r.properties)) walk(p.type);
  for (const td of tds) for (const p of Object.values(td.properties)) walk(p.type);
  for (const a of Object.values(r.attributes)) walk(a.type);
}
console.log({ collisions, badNames: [...badNames].slice(0, 20), tdRepl, tdReplTypes: tdReplTypes.size, nestedRefs });
console.log([...tdReplTypes].slice(0, 30));
const r = db.lookup('resource', 'cloudFormationType', 'equals', 'AWS::EC2::Instance').only();
const tds = db.follow('usesType', r).map(x => x.entity);
for (const td of tds) { const rp = Object.entries(td.properties).filter(([k,p]) => p.causesReplacement).map(([k,p]) => k + ':' + p.causesReplacement); if (rp.length) console.log(td.name, rp); }
