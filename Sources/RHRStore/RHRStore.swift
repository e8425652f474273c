// RHRStore: see DESIGN.md section 3.
