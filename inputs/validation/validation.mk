# validation.mk -- regenerate the validation set's PTX in inputs/validation/
# from the CUDA sources.  Included by the top-level Makefile after
# inputs/kernels/kernels.mk (paths are relative to the repository top); the
# top-level 'kernels' target then rebuilds both sets.  Also usable
# standalone:
#
#     make -f inputs/validation/validation.mk      # same as 'validation-kernels'
#     make kernels NVCC=/usr/local/cuda/bin/nvcc KERNEL_ARCH=sm_80
#
# Without nvcc on PATH the target prints a note and leaves the committed PTX
# alone.  A .ptx is rebuilt when its .cu is newer; 'make -B kernels' forces
# all of them.  After regenerating, refresh the 'regs =' lines of the *.spec
# files from 'ptxas -v -arch=sm_75' (the table is in README.md).

NVCC ?= nvcc
KERNEL_ARCH ?= sm_75
KERNEL_NVCCFLAGS ?= -O3

VALIDATION_DIR := inputs/validation
VALIDATION_CU  := $(wildcard $(VALIDATION_DIR)/*.cu)
VALIDATION_PTX := $(VALIDATION_CU:.cu=.ptx)
VALIDATION_HAVE_NVCC := $(shell command -v $(NVCC) 2>/dev/null)

# Do not steal the including Makefile's default goal: remember it here.
validation_saved_goal := $(.DEFAULT_GOAL)

.PHONY: kernels validation-kernels

kernels: validation-kernels

ifeq ($(VALIDATION_HAVE_NVCC),)
validation-kernels:
	@echo "validation-kernels: '$(NVCC)' not found on PATH; keeping the bundled PTX in $(VALIDATION_DIR)/"
else
validation-kernels: $(VALIDATION_PTX)

$(VALIDATION_DIR)/%.ptx: $(VALIDATION_DIR)/%.cu
	$(NVCC) -ptx -arch=$(KERNEL_ARCH) $(KERNEL_NVCCFLAGS) $< -o $@
endif

# Standalone: default to 'validation-kernels'.  Included: restore the
# includer's default goal.
ifeq ($(firstword $(MAKEFILE_LIST)),$(lastword $(MAKEFILE_LIST)))
.DEFAULT_GOAL := validation-kernels
else
.DEFAULT_GOAL := $(validation_saved_goal)
endif
