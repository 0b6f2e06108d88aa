/**
 * The Java SDK's Maven build files (tools/sdk/javaBuildFiles.ts), made from the schema: the pom's
 * coordinates and pins, the plugin.json by which the Java language host finds the plugin, and the
 * Java quickstart's pom on the same pins. Also the Maven options the wrapper hands the host.
 */
import * as fs from "fs";
import * as path from "path";
import {
  MAVEN_PLUGINS,
  PULUMI_JAVA_SDK,
  javaBuildFiles,
  javaCoordinates,
  type JavaPackageSpec,
} from "../../../tools/sdk/javaBuildFiles";
import { mavenOptions, withMavenRepository } from "../../../tools/java/javaTools";

const REPO = path.resolve(__dirname, "..", "..", "..");
const SPEC: JavaPackageSpec = {
  name: "vmapi",
  version: "0.3.1",
  displayName: "VM API",
  description: "Machines & <scripts>",
  repository: "https://example.com/repo",
  license: "Apache-2.0",
};

/** The text of `<tag>` elements in an XML string, in order. */
const texts = (xml: string, tag: string) =>
  [...xml.matchAll(new RegExp(`<${tag}>([^<]*)</${tag}>`, "g"))].map((m) => m[1]);

test("javaBuildFiles: a schema → a pom at its name and version, under Pulumi's default group, with the description escaped", () => {
  const pom = javaBuildFiles(SPEC).get("pom.xml")!;
  expect(texts(pom, "groupId")[0]).toBe("com.pulumi");
  expect(texts(pom, "artifactId")[0]).toBe("vmapi");
  expect(texts(pom, "version")[0]).toBe("0.3.1");
  expect(pom).toContain("<description>Machines &#38; &#60;scripts&#62;</description>");
  expect(pom).toMatch(/<artifactId>pulumi<\/artifactId>\s*<version>1\.36\.1<\/version>/);
  expect(pom).toMatch(/<artifactId>maven-compiler-plugin<\/artifactId>\s*<version>3\.13\.0<\/version>/);
});

test("javaBuildFiles: plugin.json → beside version.txt in the Java package's folder, naming the plugin at the schema's version", () => {
  const files = javaBuildFiles(SPEC);
  expect(JSON.parse(files.get("src/main/resources/com/pulumi/vmapi/plugin.json")!)).toEqual({
    resource: true,
    name: "vmapi",
    version: "0.3.1",
  });
});

test("javaBuildFiles: a pluginDownloadURL → plugin.json's server, where the engine downloads the plugin from", () => {
  const files = javaBuildFiles({ ...SPEC, pluginDownloadURL: "https://example.com/releases" });
  expect(JSON.parse(files.get("src/main/resources/com/pulumi/vmapi/plugin.json")!)).toMatchObject({
    server: "https://example.com/releases",
  });
});

test("javaCoordinates: language.java.basePackage → the group and the Java package", () => {
  const spec = { ...SPEC, language: { java: { basePackage: "com.example" } } };
  expect(javaCoordinates(spec)).toEqual({
    groupId: "com.example",
    artifactId: "vmapi",
    version: "0.3.1",
    javaPackage: "com.example.vmapi",
  });
  expect([...javaBuildFiles(spec).keys()]).toContain("src/main/resources/com/example/vmapi/plugin.json");
});

test("javaCoordinates: a base package outside com → refused, naming the field (the Java SDK looks for plugin.json under com/ only)", () => {
  expect(() =>
    javaCoordinates({ ...SPEC, language: { java: { basePackage: "io.github.example" } } }),
  ).toThrow(/language\.java\.basePackage "io\.github\.example".*under com\./);
});

test("examples/java/pom.xml: the com.pulumi:pulumi and compiler plugin the SDK is built with, and the SDK at the schema's version", () => {
  const pom = fs.readFileSync(path.join(REPO, "examples", "java", "pom.xml"), "utf8");
  const schema = JSON.parse(
    fs.readFileSync(path.join(REPO, "plugin", "schema.json"), "utf8"),
  ) as JavaPackageSpec;
  const { groupId, artifactId, version } = javaCoordinates(schema);
  expect(pom).toMatch(new RegExp(`<artifactId>pulumi</artifactId>\\s*<version>${PULUMI_JAVA_SDK}</version>`));
  expect(pom).toMatch(
    new RegExp(
      `<artifactId>maven-compiler-plugin</artifactId>\\s*<version>${MAVEN_PLUGINS["maven-compiler-plugin"]}</version>`,
    ),
  );
  expect(pom).toMatch(
    new RegExp(
      `<groupId>${groupId}</groupId>\\s*<artifactId>${artifactId}</artifactId>\\s*<version>${version}</version>`,
    ),
  );
});

test("withMavenRepository: the repository after the caller's own MAVEN_OPTS (the JVM takes the last -D)", () => {
  const env = withMavenRepository({ MAVEN_OPTS: "-Xmx1g -Dmaven.repo.local=/mine" }, "/cache/repository");
  expect(env.MAVEN_OPTS).toMatch(
    /^-Xmx1g -Dmaven\.repo\.local=\/mine .*-Dmaven\.repo\.local=\/cache\/repository$/,
  );
});

test("mavenOptions: a repository path with a space → refused (MAVEN_OPTS is split on spaces)", () => {
  expect(() => mavenOptions("/home/me/my cache/repository")).toThrow(/has a space.*VMAPI_CACHE_DIR/);
});
