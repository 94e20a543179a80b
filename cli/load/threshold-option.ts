// No imports: `load` and `run` show it in --help without loading the load machinery.
/** `--threshold`: the load runs' objectives, which a capacity search holds each step to. */
export const thresholdOption = {
  threshold: {
    type: "string",
    multiple: true,
    valueName: "NAME=EXPR",
    description:
      "Replace a metric's thresholds (capacity: its objectives), e.g. 'http_req_duration{endpoint:events}=p(95)<300'.",
  },
} as const;
