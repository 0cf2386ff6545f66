// Three gathers whose address depends on threadIdx.y through loaded data.
// (1) A data-scaled coordinate: a per-channel coefficient (the same for the
//     whole warp) times the row index, converted to an integer (dedispersion,
//     resampling): neighbouring rows read neighbouring bytes.
// (2) An indirect index: the index itself is loaded at a per-thread address
//     (sparse column indices): a true gather.
// (3) An integer pitch read from memory times the row: rows far apart.
__global__ void smooth(const unsigned char *in, float *out,
                       const float *coef, int channels, int stride) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  float acc = 0.0f;
  for (int c = 0; c < channels; ++c) {
    unsigned shift = (unsigned)((float)y * coef[c]);
    acc += in[c * stride + x + shift];
  }
  out[y * stride + x] = acc;
}

__global__ void indirect(const float *in, const int *col, float *out,
                         int stride) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * stride + x] = in[col[y * stride + x]];
}

__global__ void pitched(const float *in, const int *pitch, float *out) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  out[y * 4096 + x] = in[y * pitch[0] + x];
}

// (4) The data-scaled coordinate of (1) in rows of 1000 samples checked
//     against a pitch of 1100 bytes, for 256 rows: the shift can move a
//     row's reads at most 100 bytes over the 256 rows (the row's padding),
//     0.195 bytes per row on average; four rows per thread, so 0.78 bytes
//     per threadIdx.y.
__global__ void shifted(const unsigned char *in, float *out,
                        const float *coef) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y0 = (blockIdx.y * blockDim.y + threadIdx.y) * 4;
  if (x < 1000) {
    for (int r = 0; r < 4; ++r) {
      int y = y0 + r;
      if (y < 256) {
        float acc = 0.0f;
        for (int c = 0; c < 64; ++c) {
          unsigned shift = (unsigned)((float)y * coef[c]);
          acc += in[c * 1100 + x + shift];
        }
        out[y * 1000 + x] = acc;
      }
    }
  }
}

// (5) As (4) with rows packed (pitch 1000 = the checked extent): no
//     padding, so nothing bounds how far the shift moves a row's reads.
__global__ void unpadded(const unsigned char *in, float *out,
                         const float *coef) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1000 && y < 256) {
    float acc = 0.0f;
    for (int c = 0; c < 64; ++c) {
      unsigned shift = (unsigned)((float)y * coef[c]);
      acc += in[c * 1000 + x + shift];
    }
    out[y * 1000 + x] = acc;
  }
}
