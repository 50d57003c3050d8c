declare module "hl7-standard" {
  interface Segment {
    set(path: string, value: string): void;
  }
  interface HL7Options {
    lineEndings?: "\r" | "\n" | "\r\n";
  }
  export default class HL7 {
    constructor(data?: string, options?: HL7Options);
    createSegment(name: string): Segment;
    build(): string;
  }
}
