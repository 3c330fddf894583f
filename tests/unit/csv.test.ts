import { describe, expect, test } from "vitest";
import { csvResponse } from "~/.server/csv";
import { csvCell, toCsv } from "~/lib/csv";

describe("toCsv", () => {
  test("BOM, ';' separator and CRLF after every line", () => {
    const csv = toCsv(["Nome", "Valor"], [["Ana", 10], ["João", 2.5]]);
    expect(csv).toBe("\uFEFFNome;Valor\r\nAna;10\r\nJoão;2,5\r\n");
    expect(csv.charCodeAt(0)).toBe(0xfeff);
  });

  test("headers only when there are no rows", () => {
    expect(toCsv(["A", "B"], [])).toBe("\uFEFFA;B\r\n");
  });

  test("null, undefined and non-finite numbers are empty cells", () => {
    expect(toCsv(["a", "b", "c", "d"], [[null, undefined, Number.NaN, ""]])).toBe("\uFEFFa;b;c;d\r\n;;;\r\n");
  });

  test("quotes cells with ';', '\"', CR or LF and doubles the quotes", () => {
    expect(csvCell("a;b")).toBe('"a;b"');
    expect(csvCell('diz "olá"')).toBe('"diz ""olá"""');
    expect(csvCell("linha 1\nlinha 2")).toBe('"linha 1\nlinha 2"');
    expect(csvCell("linha 1\r\nlinha 2")).toBe('"linha 1\r\nlinha 2"');
    expect(csvCell("a,b")).toBe("a,b");
    expect(csvCell("plain text")).toBe("plain text");
  });

  test("a quoted multi-line cell stays one record", () => {
    const csv = toCsv(["obs"], [["a\nb"]]);
    expect(csv).toBe('\uFEFFobs\r\n"a\nb"\r\n');
  });

  test.each([
    ["=1+1", "'=1+1"],
    ["+5511999999999", "'+5511999999999"],
    ["-2+3", "'-2+3"],
    ["@SUM(A1)", "'@SUM(A1)"],
    ["\tcmd", "'\tcmd"],
    ['=HYPERLINK("http://x";"y")', `"'=HYPERLINK(""http://x"";""y"")"`],
    ["\rcmd", "\"'\rcmd\""],
    ["-", "'-"],
  ])("guards formula-like text %j", (input, expected) => {
    expect(csvCell(input)).toBe(expected);
  });

  test("does not guard text where the dangerous character is not first", () => {
    expect(csvCell("a=b")).toBe("a=b");
    expect(csvCell("email@x.com")).toBe("email@x.com");
  });

  test("numbers are not guarded and use a decimal comma", () => {
    expect(csvCell(-12)).toBe("-12");
    expect(csvCell(-1234.56)).toBe("-1234,56");
    expect(csvCell(0)).toBe("0");
    expect(csvCell(123456 / 100)).toBe("1234,56");
    expect(csvCell(Number.POSITIVE_INFINITY)).toBe("");
  });

  test("headers are guarded and quoted like any text", () => {
    expect(toCsv(["=x", "a;b"], [])).toBe("\uFEFF'=x;\"a;b\"\r\n");
  });
});

describe("csvResponse", () => {
  test("text/csv download with the filename", async () => {
    const csv = toCsv(["Nome"], [["Ana"]]);
    const response = csvResponse("pacientes.csv", csv);
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("Content-Disposition")).toBe('attachment; filename="pacientes.csv"');
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    // The BOM survives the trip through the body.
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(new TextDecoder("utf-8", { ignoreBOM: true }).decode(bytes)).toBe(csv);
  });

  test("non-ASCII names get an ASCII fallback and filename*", () => {
    const response = csvResponse("relatório financeiro.csv", "");
    expect(response.headers.get("Content-Disposition")).toBe(
      "attachment; filename=\"relatorio financeiro.csv\"; filename*=UTF-8''relat%C3%B3rio%20financeiro.csv",
    );
  });

  test("quotes, slashes and line breaks cannot break the header; .csv is added", () => {
    const response = csvResponse('a"b/..\\c\r\nSet-Cookie: x', "");
    const disposition = response.headers.get("Content-Disposition") ?? "";
    expect(disposition).toBe('attachment; filename="ab..cSet-Cookie: x.csv"');
    expect(response.headers.get("Set-Cookie")).toBeNull();
    expect(csvResponse("", "").headers.get("Content-Disposition")).toBe('attachment; filename="export.csv"');
  });
});
