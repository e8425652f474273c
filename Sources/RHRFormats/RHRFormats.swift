// RHRFormats: see DESIGN.md section 3.
