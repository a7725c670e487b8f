// Validate glTF files with the official Khronos glTF Validator (npm gltf-validator).
//
//   node tools/validate_gltf.mjs FILE.glb [FILE.gltf ...]
//
// Prints one JSON array on stdout: for each file {file, errors, warnings, infos, hints,
// messages: [{code, severity, pointer, message}]} (severity 0 error, 1 warning, 2 info,
// 3 hint). Exit code 0 when no file has an error, 1 otherwise, 2 on usage errors.
// All files go through one node process, so a test validates a whole corpus quickly.
import fs from "node:fs";
import path from "node:path";
import validator from "gltf-validator";

const files = process.argv.slice(2);
if (files.length === 0) {
  console.error("usage: node tools/validate_gltf.mjs FILE.glb|FILE.gltf ...");
  process.exit(2);
}

const results = [];
let failed = false;
for (const file of files) {
  const bytes = new Uint8Array(fs.readFileSync(file));
  const dir = path.dirname(file);
  let report;
  try {
    report = await validator.validateBytes(bytes, {
      uri: path.basename(file),
      maxIssues: 0, // report every issue
      // Our exports embed everything; external URIs are resolved inside the file's folder only.
      externalResourceFunction: (uri) =>
        new Promise((resolve, reject) => {
          const target = path.resolve(dir, decodeURIComponent(uri));
          if (!target.startsWith(path.resolve(dir) + path.sep)) {
            reject(new Error(`refusing ${uri}`));
            return;
          }
          fs.readFile(target, (err, data) => (err ? reject(err) : resolve(new Uint8Array(data))));
        }),
    });
  } catch (err) {
    results.push({ file, errors: 1, warnings: 0, infos: 0, hints: 0,
      messages: [{ code: "VALIDATOR_FAILED", severity: 0, pointer: "", message: String(err) }] });
    failed = true;
    continue;
  }
  const issues = report.issues;
  results.push({
    file,
    errors: issues.numErrors,
    warnings: issues.numWarnings,
    infos: issues.numInfos,
    hints: issues.numHints,
    messages: issues.messages.map((m) => ({
      code: m.code, severity: m.severity, pointer: m.pointer ?? "", message: m.message,
    })),
  });
  if (issues.numErrors > 0) failed = true;
}
process.stdout.write(JSON.stringify(results, null, 1) + "\n");
process.exit(failed ? 1 : 0);
