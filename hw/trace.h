#include "trace/trace-hw_mlx5.h"
